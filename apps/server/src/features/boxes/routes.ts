import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createBoxService } from './service.ts'

/** Boxes (screen ボックス, spec §7 "Boxes"). */
export function boxRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['boxes'] })
  const boxes = createBoxService({ db: app.db, clients: app.shopClients })

  route('GET /boxes', 'ボックスの一覧（100件ずつ、新しい順）', {
    handler: (request) => boxes.list(request.shop, request.query.page),
  })

  route('POST /boxes', 'ボックスを作成（初期設定に、指定した項目を重ねて作成）', {
    errors: [400, 404],
    handler: (request) => boxes.create(request.shop, request.body),
  })

  route('GET /boxes/:id', 'ボックスと販売プランの商品', {
    errors: [404, 502],
    handler: (request) => boxes.detail(request.shop, request.params.id),
  })

  route('PUT /boxes/:id', 'ボックスの項目を保存（指定した項目のみ）', {
    errors: [400, 404],
    handler: (request) => boxes.update(request.shop, request.params.id, request.body),
  })

  route('DELETE /boxes/:id', 'ボックスを削除', {
    errors: [404],
    handler: (request) => boxes.remove(request.shop, request.params.id),
  })
}

import {
  ZBox,
  ZBoxDetail,
  ZBoxList,
  ZBoxListQuery,
  ZBoxParams,
  ZCreateBoxRequest,
  ZUpdateBoxRequest,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createBoxService } from './service.ts'

/** Boxes (screen ボックス, spec §7 "Boxes"). */
export function boxRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['boxes'])
  const boxes = createBoxService({ db: app.db, clients: app.shopClients })

  api.get('/app-admin/boxes', 'ボックスの一覧（100件ずつ、新しい順）', {
    querystring: ZBoxListQuery,
    response: { 200: ZBoxList },
    handler: (request) => boxes.list(request.shop, request.query.page),
  })

  api.create('/app-admin/boxes', 'ボックスを作成（初期設定に、指定した項目を重ねて作成）', {
    body: ZCreateBoxRequest,
    created: ZBox,
    response: errorAnswers(400, 404),
    handler: (request) => boxes.create(request.shop, request.body),
  })

  api.get('/app-admin/boxes/:id', 'ボックスと販売プランの商品', {
    params: ZBoxParams,
    response: { 200: ZBoxDetail, ...errorAnswers(404, 502) },
    handler: (request) => boxes.detail(request.shop, request.params.id),
  })

  api.put('/app-admin/boxes/:id', 'ボックスの項目を保存（指定した項目のみ）', {
    params: ZBoxParams,
    body: ZUpdateBoxRequest,
    response: { 200: ZBox, ...errorAnswers(400, 404) },
    handler: (request) => boxes.update(request.shop, request.params.id, request.body),
  })

  api.remove('/app-admin/boxes/:id', 'ボックスを削除', {
    params: ZBoxParams,
    response: errorAnswers(404),
    handler: (request) => boxes.remove(request.shop, request.params.id),
  })
}

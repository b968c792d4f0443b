import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createBoxService } from './service.ts'

const tags = ['boxes']

/** Boxes (screen ボックス, spec §7 "Boxes"). */
export function boxRoutes(app: AppInstance): void {
  const boxes = createBoxService({ db: app.db, clients: app.shopClients })

  app.route({
    ...tableRoute('GET /boxes', { tags, summary: 'ボックスの一覧（100件ずつ、新しい順）' }),
    handler: (request) => boxes.list(request.shop, request.query.page),
  })

  app.route({
    ...tableRoute('POST /boxes', {
      tags,
      summary: 'ボックスを作成（初期設定に、指定した項目を重ねて作成）',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: async (request, reply) => reply.code(201).send(await boxes.create(request.shop, request.body)),
  })

  app.route({
    ...tableRoute('GET /boxes/:id', {
      tags,
      summary: 'ボックスと販売プランの商品',
      errors: { 404: ZErrorResponse, 502: ZErrorResponse },
    }),
    handler: (request) => boxes.detail(request.shop, request.params.id),
  })

  app.route({
    ...tableRoute('PUT /boxes/:id', {
      tags,
      summary: 'ボックスの項目を保存（指定した項目のみ）',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: (request) => boxes.update(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('DELETE /boxes/:id', { tags, summary: 'ボックスを削除', errors: { 404: ZErrorResponse } }),
    handler: async (request, reply) => {
      await boxes.remove(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  })
}

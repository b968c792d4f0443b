import {
  ZBox,
  ZBoxDetail,
  ZBoxList,
  ZBoxListQuery,
  ZBoxParams,
  ZCreateBoxRequest,
  ZErrorResponse,
  ZUpdateBoxRequest,
} from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { createBoxService } from './service.ts'

const tags = ['boxes']

/** Boxes (screen ボックス, spec §7 "Boxes"). */
export function boxRoutes(app: AppInstance): void {
  const boxes = createBoxService({ db: app.db, clients: app.shopClients })

  app.get(
    '/app-admin/boxes',
    {
      schema: {
        tags,
        summary: 'ボックスの一覧（100件ずつ、新しい順）',
        querystring: ZBoxListQuery,
        response: { 200: ZBoxList },
      },
    },
    (request) => boxes.list(request.shop, request.query.page),
  )

  app.post(
    '/app-admin/boxes',
    {
      schema: {
        tags,
        summary: 'ボックスを作成（初期設定に、指定した項目を重ねて作成）',
        body: ZCreateBoxRequest,
        response: { 201: ZBox, 400: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await boxes.create(request.shop, request.body)),
  )

  app.get(
    '/app-admin/boxes/:id',
    {
      schema: {
        tags,
        summary: 'ボックスと販売プランの商品',
        params: ZBoxParams,
        response: { 200: ZBoxDetail, 404: ZErrorResponse, 502: ZErrorResponse },
      },
    },
    (request) => boxes.detail(request.shop, request.params.id),
  )

  app.put(
    '/app-admin/boxes/:id',
    {
      schema: {
        tags,
        summary: 'ボックスの項目を保存（指定した項目のみ）',
        params: ZBoxParams,
        body: ZUpdateBoxRequest,
        response: { 200: ZBox, 400: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    (request) => boxes.update(request.shop, request.params.id, request.body),
  )

  app.delete(
    '/app-admin/boxes/:id',
    {
      schema: {
        tags,
        summary: 'ボックスを削除',
        params: ZBoxParams,
        response: { 204: z.null().describe('削除しました'), 404: ZErrorResponse },
      },
    },
    async (request, reply) => {
      await boxes.remove(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  )
}

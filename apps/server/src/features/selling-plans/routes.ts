import {
  ZErrorResponse,
  ZGroupProductsChange,
  ZGroupVariants,
  ZGroupVariantsQuery,
  ZSellingPlanGroupDetail,
  ZSellingPlanGroupInput,
  ZSellingPlanGroupList,
  ZSellingPlanGroupListQuery,
  ZSellingPlanGroupParams,
  ZSellingPlanGroupSummary,
  ZSellingPlanList,
} from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { sharedShopClients } from '../subscriptions/shop-client.ts'
import { createGroupProductsService } from './group-products-service.ts'
import { planRoutes } from './plan-routes.ts'
import { createSellingPlanService } from './service.ts'

const tags = ['selling-plans']
const errors = { 400: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse }

/** Selling plan groups (screen 販売プラン, spec §7 "Selling plans"): list, editor, products. */
export function sellingPlanRoutes(app: AppInstance): void {
  const deps = { db: app.db, clients: sharedShopClients(app.platformOptions) }
  const groups = createSellingPlanService(deps)
  const products = createGroupProductsService({ ...deps, groups })

  app.get(
    '/app-admin/subscriptions/sellingPlanGroups',
    {
      schema: {
        tags,
        summary: '販売プランの一覧（10件ずつ、新しい順、名前で検索）',
        querystring: ZSellingPlanGroupListQuery,
        response: { 200: ZSellingPlanGroupList },
      },
    },
    (request) => groups.list(request.shop, request.query.query, request.query.page),
  )

  app.get(
    '/app-admin/subscriptions/sellingPlanGroups/:id/sellingPlans',
    {
      schema: {
        tags,
        summary: '販売プランのプラン（割引の種類つき）',
        params: ZSellingPlanGroupParams,
        response: { 200: ZSellingPlanList, 404: ZErrorResponse },
      },
    },
    (request) => groups.plans(request.shop, request.params.id),
  )

  app.get(
    '/app-admin/selling-plan-groups/:id',
    {
      schema: {
        tags,
        summary: '販売プランの詳細（編集画面用、ストアから最新を読み込み）',
        params: ZSellingPlanGroupParams,
        response: { 200: ZSellingPlanGroupDetail, ...errors },
      },
    },
    (request) => groups.detail(request.shop, request.params.id),
  )

  app.post(
    '/app-admin/selling-plan-groups',
    {
      schema: {
        tags,
        summary: '販売プランを作成',
        body: ZSellingPlanGroupInput,
        response: { 201: ZSellingPlanGroupSummary, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await groups.create(request.shop, request.body)),
  )

  app.put(
    '/app-admin/selling-plan-groups/:id',
    {
      schema: {
        tags,
        summary: '販売プランを保存（本文にないプランは削除）',
        params: ZSellingPlanGroupParams,
        body: ZSellingPlanGroupInput,
        response: { 200: ZSellingPlanGroupSummary, ...errors },
      },
    },
    (request) => groups.update(request.shop, request.params.id, request.body),
  )

  app.delete(
    '/app-admin/selling-plan-groups/:id',
    {
      schema: {
        tags,
        summary: '販売プランを削除',
        params: ZSellingPlanGroupParams,
        response: { 204: z.null().describe('削除しました'), ...errors },
      },
    },
    async (request, reply) => {
      await groups.remove(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/app-admin/selling-plan-groups/:id/products',
    {
      schema: {
        tags,
        summary: '販売プランの商品・バリエーションを追加・削除',
        params: ZSellingPlanGroupParams,
        body: ZGroupProductsChange,
        response: { 200: ZSellingPlanGroupSummary, ...errors },
      },
    },
    (request) =>
      products.change(request.shop, request.params.id, {
        addProductIds: request.body.addProductIds ?? [],
        removeProductIds: request.body.removeProductIds ?? [],
        addVariantIds: request.body.addVariantIds ?? [],
        removeVariantIds: request.body.removeVariantIds ?? [],
      }),
  )

  app.get(
    '/app-admin/selling-plan-groups/:id/variants',
    {
      schema: {
        tags,
        summary: '販売プランのバリエーション（100件ずつ）',
        params: ZSellingPlanGroupParams,
        querystring: ZGroupVariantsQuery,
        response: { 200: ZGroupVariants, ...errors },
      },
    },
    (request) => products.variants(request.shop, request.params.id, request.query.after),
  )

  app.put(
    '/app-admin/selling-plan-groups/:id/sync',
    {
      schema: {
        tags,
        summary: '販売プランをストアから読み直す',
        params: ZSellingPlanGroupParams,
        response: { 200: ZSellingPlanGroupSummary, ...errors },
      },
    },
    (request) => groups.sync(request.shop, request.params.id),
  )

  planRoutes(app, deps)
}

import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { SellingPlanGroupRecord } from '../records.ts'
import { fieldsByKind, type SearchSpec, searchConnection } from '../search-query.ts'
import { findById } from '../store.ts'
import { byGid, manyById, manyByIdSorted } from './lookup.ts'

export const sellingPlanGroupSearch: SearchSpec<SellingPlanGroupRecord> = {
  fields: fieldsByKind<SellingPlanGroupRecord>({
    number: ['id'],
    string: ['name', 'merchant_code'],
    date: ['created_at'],
  }),
  text: (g) => `${g.name} ${g.merchantCode}`,
  // A group keeps no update time: UPDATED_AT sorts as CREATED_AT.
  sortKeys: { NAME: (g) => g.name, CREATED_AT: (g) => g.createdAt, UPDATED_AT: (g) => g.createdAt },
}

function variantsOf(g: SellingPlanGroupRecord, ctx: Context, productGid?: string | null) {
  const productId = productGid ? idOf(productGid, 'Product') : null
  const products = manyById(ctx.shop.products, g.productIds).filter(
    (p) => productId === null || p.id === productId,
  )
  // Variants added one by one count too, without duplicating those of whole products.
  const single = (g.variantIds ?? []).filter(
    (id) => productId === null || findById(ctx.shop.variants, id)?.productId === productId,
  )
  const ids = new Set([...products.flatMap((p) => p.variantIds), ...single])
  return manyByIdSorted(ctx.shop.variants, [...ids])
}

export const sellingPlanResolvers: ResolverMap = {
  QueryRoot: {
    sellingPlanGroups: (_s, args, ctx) =>
      searchConnection(ctx.shop.sellingPlanGroups, args, sellingPlanGroupSearch),
    sellingPlanGroup: (_s, args, ctx) => byGid(ctx.shop.sellingPlanGroups, args.id, 'SellingPlanGroup'),
  },
  SellingPlanGroup: {
    products: (g: SellingPlanGroupRecord, args, ctx: Context) =>
      connection(manyByIdSorted(ctx.shop.products, g.productIds), args),
    productsCount: (g: SellingPlanGroupRecord) => ({ count: g.productIds.length, precision: 'EXACT' }),
    productVariants: (g: SellingPlanGroupRecord, args, ctx: Context) =>
      connection(variantsOf(g, ctx, args.productId), args),
    productVariantsCount: (g: SellingPlanGroupRecord, args, ctx: Context) => ({
      count: variantsOf(g, ctx, args.productId).length,
      precision: 'EXACT',
    }),
    sellingPlans: (g: SellingPlanGroupRecord, args) => connection(g.sellingPlans, args),
  },
}

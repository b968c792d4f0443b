import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { SellingPlanGroupRecord } from '../records.ts'
import { filterBySearch, type SearchSpec } from '../search-query.ts'
import { findById } from '../store.ts'
import { byGid, manyById } from './lookup.ts'

export const sellingPlanGroupSearch: SearchSpec<SellingPlanGroupRecord> = {
  fields: {
    id: { kind: 'number', get: (g) => g.id },
    name: { kind: 'string', get: (g) => g.name },
    merchant_code: { kind: 'string', get: (g) => g.merchantCode },
    created_at: { kind: 'date', get: (g) => g.createdAt },
  },
  text: (g) => `${g.name} ${g.merchantCode}`,
}

const sortKeys: Record<string, ((g: SellingPlanGroupRecord) => number | string) | undefined> = {
  NAME: (g) => g.name,
  CREATED_AT: (g) => g.createdAt,
  UPDATED_AT: (g) => g.createdAt,
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
  return manyById(
    ctx.shop.variants,
    [...ids].sort((a, b) => a - b),
  )
}

export const sellingPlanResolvers: ResolverMap = {
  QueryRoot: {
    sellingPlanGroups: (_s, args, ctx) =>
      connection(filterBySearch(ctx.shop.sellingPlanGroups, args.query, sellingPlanGroupSearch), args, {
        key: sortKeys[args.sortKey],
      }),
    sellingPlanGroup: (_s, args, ctx) => byGid(ctx.shop.sellingPlanGroups, args.id, 'SellingPlanGroup'),
  },
  SellingPlanGroup: {
    products: (g: SellingPlanGroupRecord, args, ctx: Context) =>
      connection(
        manyById(
          ctx.shop.products,
          [...g.productIds].sort((a, b) => a - b),
        ),
        args,
      ),
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

import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf, toGid } from '../gid.ts'
import type { SellingPlanGroupRecord, SellingPlanRecord } from '../records.ts'
import { findById, nextId } from '../store.ts'
import { sellingPlanGroupPayload } from '../webhooks/payloads.ts'
import { lookup, type UserError, userError } from './common.ts'
import { type SellingPlanInput, sellingPlanFrom } from './selling-plan-input.ts'

type GroupInput = {
  name?: string | null
  merchantCode?: string | null
  description?: string | null
  options?: string[] | null
  position?: number | null
  sellingPlansToCreate?: SellingPlanInput[] | null
  sellingPlansToUpdate?: SellingPlanInput[] | null
  sellingPlansToDelete?: string[] | null
}

const MAX_PLANS = 31

/** Numeric ids of `gids` that exist in `items`, or the error naming the first unknown one. */
function resolveIds(
  items: ReadonlyArray<{ id: number }>,
  gids: readonly string[] | null | undefined,
  type: string,
  field: string[],
  code: string,
): number[] | UserError {
  const out: number[] = []
  for (const gid of gids ?? []) {
    const id = idOf(gid, type)
    if (id === null || !findById(items, id)) return userError(field, `${gid} does not exist`, code)
    out.push(id)
  }
  return out
}

const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y)

/** Builds the plans of a create or update; all or nothing. */
function plansAfter(
  ctx: Context,
  g: SellingPlanGroupRecord | null,
  input: GroupInput,
): SellingPlanRecord[] | UserError[] {
  const now = Math.floor(ctx.now() / 1000) * 1000
  const currency = ctx.shop.info.currencyCode
  const deleted = new Set((input.sellingPlansToDelete ?? []).map((gid) => idOf(gid, 'SellingPlan')))
  let plans = (g?.sellingPlans ?? []).filter((p) => !deleted.has(p.id))
  for (const [i, p] of (input.sellingPlansToUpdate ?? []).entries()) {
    const field = ['input', 'sellingPlansToUpdate', String(i)]
    const id = p.id ? idOf(p.id, 'SellingPlan') : null
    if (id === null)
      return [userError(field, 'Plan id must be specified to update', 'PLAN_ID_MUST_BE_SPECIFIED_TO_UPDATE')]
    const base = plans.find((x) => x.id === id)
    if (!base) return [userError([...field, 'id'], 'Selling plan does not exist', 'PLAN_DOES_NOT_EXIST')]
    const made = sellingPlanFrom(p, base, field, { id, now, currency })
    if (Array.isArray(made)) return made
    plans = plans.map((x) => (x.id === id ? made : x))
  }
  for (const [i, p] of (input.sellingPlansToCreate ?? []).entries()) {
    const made = sellingPlanFrom(p, null, ['input', 'sellingPlansToCreate', String(i)], {
      id: 0,
      now,
      currency,
    })
    if (Array.isArray(made)) return made
    plans = [...plans, made]
  }
  if (plans.length === 0)
    return [
      userError(
        ['input', 'sellingPlansToCreate'],
        'A selling plan group needs at least 1 selling plan',
        'SELLING_PLAN_COUNT_LOWER_BOUND',
      ),
    ]
  if (plans.length > MAX_PLANS)
    return [
      userError(
        ['input', 'sellingPlansToCreate'],
        `At most ${MAX_PLANS} selling plans per group`,
        'SELLING_PLAN_COUNT_UPPER_BOUND',
      ),
    ]
  const names = new Set(plans.map((p) => p.name))
  if (names.size !== plans.length)
    return [
      userError(
        ['input', 'sellingPlansToCreate'],
        'Selling plan names must be unique',
        'SELLING_PLAN_DUPLICATE_NAME',
      ),
    ]
  // Ids only once everything validated, so a rejected input burns none.
  return plans.map((p) => (p.id === 0 ? { ...p, id: nextId(ctx.shop, 'SellingPlan') } : p))
}

function changed(ctx: Context, g: SellingPlanGroupRecord, topic: string) {
  ctx.store.changed()
  ctx.runtime.emit(ctx.shop, topic, sellingPlanGroupPayload(g))
}

const groupOf = (ctx: Context, gid: string) => lookup(ctx.shop.sellingPlanGroups, gid, 'SellingPlanGroup')
const noGroup = () => userError(['id'], 'Selling plan group does not exist', 'GROUP_DOES_NOT_EXIST')

export const sellingPlanGroupMutations: ResolverMap = {
  Mutation: {
    sellingPlanGroupCreate: (
      _s,
      args: {
        input: GroupInput
        resources?: { productIds?: string[] | null; productVariantIds?: string[] | null } | null
      },
      ctx: Context,
    ) => {
      const fail = (e: UserError[]) => ({ sellingPlanGroup: null, userErrors: e })
      const name = args.input.name?.trim() ?? ''
      if (name === '') return fail([userError(['input', 'name'], "Name can't be blank", 'BLANK')])
      const productIds = resolveIds(
        ctx.shop.products,
        args.resources?.productIds,
        'Product',
        ['resources', 'productIds'],
        'PRODUCT_DOES_NOT_EXIST',
      )
      if (!Array.isArray(productIds)) return fail([productIds])
      const variantIds = resolveIds(
        ctx.shop.variants,
        args.resources?.productVariantIds,
        'ProductVariant',
        ['resources', 'productVariantIds'],
        'PRODUCT_VARIANT_DOES_NOT_EXIST',
      )
      if (!Array.isArray(variantIds)) return fail([variantIds])
      const plans = plansAfter(ctx, null, args.input)
      if (plans.length > 0 && 'message' in plans[0]!) return fail(plans as UserError[])
      const g: SellingPlanGroupRecord = {
        id: nextId(ctx.shop, 'SellingPlanGroup'),
        name,
        merchantCode: args.input.merchantCode ?? name,
        description: args.input.description ?? null,
        options: args.input.options ?? ['配送頻度'],
        position: args.input.position ?? null,
        summary: null,
        createdAt: Math.floor(ctx.now() / 1000) * 1000,
        productIds: union([], productIds),
        variantIds: union([], variantIds),
        sellingPlans: plans as SellingPlanRecord[],
      }
      ctx.shop.sellingPlanGroups.push(g)
      changed(ctx, g, 'selling_plan_groups/create')
      return { sellingPlanGroup: g, userErrors: [] }
    },
    sellingPlanGroupUpdate: (_s, args: { id: string; input: GroupInput }, ctx: Context) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { sellingPlanGroup: null, deletedSellingPlanIds: null, userErrors: [noGroup()] }
      if (args.input.name !== undefined && (args.input.name ?? '').trim() === '')
        return {
          sellingPlanGroup: null,
          deletedSellingPlanIds: null,
          userErrors: [userError(['input', 'name'], "Name can't be blank", 'BLANK')],
        }
      const plans = plansAfter(ctx, g, args.input)
      if (plans.length > 0 && 'message' in plans[0]!)
        return { sellingPlanGroup: null, deletedSellingPlanIds: null, userErrors: plans as UserError[] }
      const kept = new Set((plans as SellingPlanRecord[]).map((p) => p.id))
      const deletedSellingPlanIds = g.sellingPlans
        .filter((p) => !kept.has(p.id))
        .map((p) => toGid('SellingPlan', p.id))
      const { input } = args
      if (input.name) g.name = input.name.trim()
      if (input.merchantCode) g.merchantCode = input.merchantCode
      if (input.description !== undefined) g.description = input.description
      if (input.options) g.options = input.options
      if (input.position !== undefined) g.position = input.position
      g.sellingPlans = plans as SellingPlanRecord[]
      changed(ctx, g, 'selling_plan_groups/update')
      return { sellingPlanGroup: g, deletedSellingPlanIds, userErrors: [] }
    },
    sellingPlanGroupDelete: (_s, args: { id: string }, ctx: Context) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { deletedSellingPlanGroupId: null, userErrors: [noGroup()] }
      ctx.shop.sellingPlanGroups = ctx.shop.sellingPlanGroups.filter((x) => x !== g)
      ctx.store.changed()
      ctx.runtime.emit(ctx.shop, 'selling_plan_groups/delete', {
        admin_graphql_api_id: toGid('SellingPlanGroup', g.id),
        id: g.id,
      })
      return { deletedSellingPlanGroupId: toGid('SellingPlanGroup', g.id), userErrors: [] }
    },
    sellingPlanGroupAddProducts: (_s, args: { id: string; productIds: string[] }, ctx: Context) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { sellingPlanGroup: null, userErrors: [noGroup()] }
      const ids = resolveIds(
        ctx.shop.products,
        args.productIds,
        'Product',
        ['productIds'],
        'PRODUCT_DOES_NOT_EXIST',
      )
      if (!Array.isArray(ids)) return { sellingPlanGroup: null, userErrors: [ids] }
      g.productIds = union(g.productIds, ids)
      changed(ctx, g, 'selling_plan_groups/update')
      return { sellingPlanGroup: g, userErrors: [] }
    },
    sellingPlanGroupRemoveProducts: (_s, args: { id: string; productIds: string[] }, ctx: Context) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { removedProductIds: null, userErrors: [noGroup()] }
      const ids = new Set(args.productIds.map((gid) => idOf(gid, 'Product')))
      const removed = g.productIds.filter((id) => ids.has(id))
      g.productIds = g.productIds.filter((id) => !ids.has(id))
      changed(ctx, g, 'selling_plan_groups/update')
      return { removedProductIds: removed.map((id) => toGid('Product', id)), userErrors: [] }
    },
    sellingPlanGroupAddProductVariants: (
      _s,
      args: { id: string; productVariantIds: string[] },
      ctx: Context,
    ) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { sellingPlanGroup: null, userErrors: [noGroup()] }
      const ids = resolveIds(
        ctx.shop.variants,
        args.productVariantIds,
        'ProductVariant',
        ['productVariantIds'],
        'PRODUCT_VARIANT_DOES_NOT_EXIST',
      )
      if (!Array.isArray(ids)) return { sellingPlanGroup: null, userErrors: [ids] }
      g.variantIds = union(g.variantIds ?? [], ids)
      changed(ctx, g, 'selling_plan_groups/update')
      return { sellingPlanGroup: g, userErrors: [] }
    },
    sellingPlanGroupRemoveProductVariants: (
      _s,
      args: { id: string; productVariantIds: string[] },
      ctx: Context,
    ) => {
      const g = groupOf(ctx, args.id)
      if (!g) return { removedProductVariantIds: null, userErrors: [noGroup()] }
      const ids = new Set(args.productVariantIds.map((gid) => idOf(gid, 'ProductVariant')))
      const removed = (g.variantIds ?? []).filter((id) => ids.has(id))
      g.variantIds = (g.variantIds ?? []).filter((id) => !ids.has(id))
      changed(ctx, g, 'selling_plan_groups/update')
      return { removedProductVariantIds: removed.map((id) => toGid('ProductVariant', id)), userErrors: [] }
    },
  },
}

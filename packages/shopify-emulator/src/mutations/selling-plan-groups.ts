import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf, toGid } from '../gid.ts'
import type { SellingPlanGroupRecord, SellingPlanRecord } from '../records.ts'
import { nextId } from '../store.ts'
import { sellingPlanGroupPayload } from '../webhooks/payloads.ts'
import { existingIds, lookup, type UserError, userError } from './common.ts'
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

/** What a group's add/remove mutations for products or single variants work on. */
type GroupResource = {
  type: 'Product' | 'ProductVariant'
  /** The group's list of them. */
  key: 'productIds' | 'variantIds'
  records: (ctx: Context) => ReadonlyArray<{ id: number }>
  /** The mutations' argument (productIds, productVariantIds). */
  arg: string
  /** The remove's payload field (removedProductIds…). */
  removed: string
  /** The user error's code for an unknown id (PRODUCT_DOES_NOT_EXIST…). */
  missing: string
}

/** A resource, its argument, payload field and error code named as the platform names them. */
function groupResource(
  type: GroupResource['type'],
  key: GroupResource['key'],
  records: GroupResource['records'],
) {
  const upper = type.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toUpperCase()
  const arg = `${type[0]!.toLowerCase()}${type.slice(1)}Ids`
  return { type, key, records, arg, removed: `removed${type}Ids`, missing: `${upper}_DOES_NOT_EXIST` }
}
const PRODUCTS = groupResource('Product', 'productIds', (ctx) => ctx.shop.products)
const VARIANTS = groupResource('ProductVariant', 'variantIds', (ctx) => ctx.shop.variants)

/** sellingPlanGroupAdd…: each id must exist; they join the group's list. */
const addToGroup =
  (r: GroupResource) => (_s: unknown, args: { id: string } & Record<string, string[]>, ctx: Context) => {
    const g = groupOf(ctx, args.id)
    if (!g) return { sellingPlanGroup: null, userErrors: [noGroup()] }
    const ids = existingIds(r.records(ctx), args[r.arg], r.type, [r.arg], r.missing)
    if (!Array.isArray(ids)) return { sellingPlanGroup: null, userErrors: [ids] }
    g[r.key] = union(g[r.key] ?? [], ids)
    changed(ctx, g, 'selling_plan_groups/update')
    return { sellingPlanGroup: g, userErrors: [] }
  }

/** sellingPlanGroupRemove…: the ids the group had leave it (others are ignored) and are answered. */
const removeFromGroup =
  (r: GroupResource) => (_s: unknown, args: { id: string } & Record<string, string[]>, ctx: Context) => {
    const g = groupOf(ctx, args.id)
    if (!g) return { [r.removed]: null, userErrors: [noGroup()] }
    const ids = new Set((args[r.arg] ?? []).map((gid) => idOf(gid, r.type)))
    const removed = (g[r.key] ?? []).filter((id) => ids.has(id))
    g[r.key] = (g[r.key] ?? []).filter((id) => !ids.has(id))
    changed(ctx, g, 'selling_plan_groups/update')
    return { [r.removed]: removed.map((id) => toGid(r.type, id)), userErrors: [] }
  }

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
      const productIds = existingIds(
        ctx.shop.products,
        args.resources?.productIds,
        'Product',
        ['resources', 'productIds'],
        'PRODUCT_DOES_NOT_EXIST',
      )
      if (!Array.isArray(productIds)) return fail([productIds])
      const variantIds = existingIds(
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
    sellingPlanGroupAddProducts: addToGroup(PRODUCTS),
    sellingPlanGroupRemoveProducts: removeFromGroup(PRODUCTS),
    sellingPlanGroupAddProductVariants: addToGroup(VARIANTS),
    sellingPlanGroupRemoveProductVariants: removeFromGroup(VARIANTS),
  },
}

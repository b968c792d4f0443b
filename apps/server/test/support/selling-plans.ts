import type { SellingPlanInput } from '@teiki/contract'
import type { Emulator } from '@teiki/shopify-emulator'
import { expect } from 'vitest'
import { type MainAndOther, startMainAndOther, useMainAndOther } from './emulated-app.ts'

/** Two synced shops on an in-process emulator for the selling plan and box tests (startMainAndOther). */
export const startPlanShops = (name: string): Promise<PlanShops> =>
  startMainAndOther(name, { secret: SECRET })

export type PlanShops = MainAndOther

/** The file's plan shops: started before its tests (2 minutes allowed), closed after them. */
export const usePlanShops = (name: string) => useMainAndOther(name, { secret: SECRET })

export const SECRET = 's3cret-plans'

/** A merchant's call on `/app-admin{path}` as `domain`: status and JSON body. */
export async function call(
  env: PlanShops,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  domain = env.main,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const sep = path.includes('?') ? '&' : '?'
  const res = await env.app.inject({
    method,
    url: `/app-admin${path}${sep}shop=${domain}&secret=${SECRET}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
  return { status: res.statusCode, body: res.body ? res.json() : {} }
}

/** The emulator's Admin API calls for `domain` since `from` (an index into the call log). */
export const callsSince = (emulator: Emulator, from: number, domain: string) =>
  emulator.callLog.slice(from).filter((c) => c.shop === domain)

/** Mutation root fields called for `domain` since `from`, in order. */
export const mutationsSince = (emulator: Emulator, from: number, domain: string) =>
  callsSince(emulator, from, domain)
    .flatMap((c) => c.rootFields)
    .filter((f) => MUTATIONS.has(f))

const MUTATIONS = new Set([
  'sellingPlanGroupCreate',
  'sellingPlanGroupUpdate',
  'sellingPlanGroupDelete',
  'sellingPlanGroupAddProducts',
  'sellingPlanGroupRemoveProducts',
  'sellingPlanGroupAddProductVariants',
  'sellingPlanGroupRemoveProductVariants',
  'deliveryProfileCreate',
  'deliveryProfileUpdate',
])

/** Everything the app keeps about a shop's selling plans and boxes, to prove nothing changed. */
export async function planDigest(env: PlanShops, domain: string): Promise<string> {
  const shopId = env.shopIds[domain]
  const tables = [
    'select id, name, merchant_code, products_count, product_variants_count from selling_plan_groups where shop_id = $1 order by id',
    'select id, group_id, name, options, billing_policy, delivery_policy, pricing_policies from selling_plans where shop_id = $1 order by id',
    'select selling_plan_id, cycle, adjustment_type, adjustment_value from selling_plan_cycle_discounts where shop_id = $1 order by 1, 2',
    'select group_id, variant_id, parent_variant_id from selling_plan_group_parents where shop_id = $1 order by 1, 2',
    'select id, name, min_selection, max_selection, selling_plan_group_id from boxes where shop_id = $1 order by id',
  ]
  const parts = []
  for (const sql of tables) parts.push((await env.pool.query(sql, [shopId])).rows)
  return JSON.stringify(parts)
}

/** The platform's shop state as JSON (selling plan groups, delivery profiles, ids). */
export const platformState = (env: PlanShops, domain: string) => {
  const shop = env.emulator.store.shop(domain)!
  return JSON.stringify({
    groups: shop.sellingPlanGroups,
    profiles: shop.extra?.deliveryProfiles,
    ids: shop.nextIds,
  })
}

/**
 * Runs `run` and proves it changed nothing: no mutation on `main` but the `refused` ones (the
 * platform's refusals), no call at all for `other`, and both shops' mirror and platform state
 * as before.
 */
export async function unchanged<T>(
  env: PlanShops,
  run: () => Promise<T>,
  refused: string[] = [],
): Promise<T> {
  const from = env.emulator.callLog.length
  const before = [await planDigest(env, env.main), platformState(env, env.main)]
  const other = [await planDigest(env, env.other), platformState(env, env.other)]
  const result = await run()
  expect(mutationsSince(env.emulator, from, env.main)).toEqual(refused)
  expect(callsSince(env.emulator, from, env.other)).toEqual([])
  expect([await planDigest(env, env.main), platformState(env, env.main)]).toEqual(before)
  expect([await planDigest(env, env.other), platformState(env, env.other)]).toEqual(other)
  return result
}

/** A monthly plan of the editor; `patch` sets the discount. */
export const plan = (name: string, patch: Partial<SellingPlanInput> = {}): SellingPlanInput => ({
  name,
  interval: 'MONTH',
  intervalCount: 1,
  minCycles: 1,
  discountType: 'noDiscount',
  ...patch,
})

export function expectError(
  res: { status: number; body: unknown },
  status: number,
  message: RegExp | string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  const error = (res.body as { error: { code: string; message: string } }).error
  expect(error.message).toMatch(message)
  return error
}

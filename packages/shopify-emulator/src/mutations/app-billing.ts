import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context, Runtime } from '../context.ts'
import { formatDecimal } from '../format.ts'
import type { AppSubscriptionRecord, ShopState } from '../records.ts'
import { nextId } from '../store.ts'
import { moveAppSubscription } from './app-subscription-status.ts'
import { type UserError, userError } from './common.ts'
import { parseDecimal } from './draft-input.ts'

type Money = { amount: string | number; currencyCode: string }
type LineItemInput = {
  plan: {
    appRecurringPricingDetails?: { interval?: string | null; price: Money } | null
    appUsagePricingDetails?: { cappedAmount: Money; terms: string } | null
  }
}

const money = (m: Money) => ({ amount: formatDecimal(parseDecimal(m.amount)), currencyCode: m.currencyCode })

/** Where the merchant approves the charge: this emulator's own page (see server routes). */
export const confirmationPath = (domain: string, id: number) =>
  `/admin/charges/${encodeURIComponent(domain)}/${id}/confirm`

function lineItems(shop: ShopState, items: LineItemInput[]): AppSubscriptionRecord['lineItems'] | UserError {
  const out: AppSubscriptionRecord['lineItems'] = []
  for (const [i, item] of items.entries()) {
    const r = item.plan.appRecurringPricingDetails
    const u = item.plan.appUsagePricingDetails
    if ((r == null) === (u == null))
      return userError(
        ['lineItems', String(i), 'plan'],
        'Give exactly one of recurring or usage pricing',
        null,
      )
    const id = nextId(shop, 'AppSubscriptionLineItem', 32_000_000_000)
    out.push({
      id,
      plan: {
        pricingDetails: r
          ? {
              __typename: 'AppRecurringPricing',
              interval: r.interval ?? 'EVERY_30_DAYS',
              price: money(r.price),
              planHandle: null,
            }
          : {
              __typename: 'AppUsagePricing',
              interval: 'EVERY_30_DAYS',
              terms: u!.terms,
              cappedAmount: money(u!.cappedAmount),
              balanceUsed: { amount: '0.0', currencyCode: u!.cappedAmount.currencyCode },
            },
      },
    })
  }
  return out
}

/**
 * The merchant approves: the charge becomes the ACTIVE one and replaces any other plan (the
 * platform's default APPLY_IMMEDIATELY), each change sending `app_subscriptions/update`.
 * Returns the subscription (unchanged unless it was PENDING), or undefined if unknown.
 */
export function approveAppSubscription(
  ctx: { shop: ShopState; runtime: Runtime; now: number },
  id: number,
): AppSubscriptionRecord | undefined {
  const sub = ctx.shop.installation.subscriptions.find((s) => s.id === id)
  if (sub?.status === 'PENDING') moveAppSubscription(ctx, sub, 'ACTIVE')
  return sub
}

export const appBillingMutations: ResolverMap = {
  Mutation: {
    appSubscriptionCreate: (
      _s,
      args: {
        name: string
        lineItems: LineItemInput[]
        returnUrl: string
        test?: boolean | null
        trialDays?: number | null
      },
      ctx: Context,
    ) => {
      const fail = (e: UserError) => ({ appSubscription: null, confirmationUrl: null, userErrors: [e] })
      if (args.name.trim() === '') return fail(userError(['name'], "Name can't be blank", null))
      if (args.lineItems.length === 0)
        return fail(userError(['lineItems'], 'At least one line item is required', null))
      const items = lineItems(ctx.shop, args.lineItems)
      if (!Array.isArray(items)) return fail(items)
      const sub: AppSubscriptionRecord = {
        id: nextId(ctx.shop, 'AppSubscription', 29_000_000_000),
        name: args.name.trim(),
        status: 'PENDING',
        test: args.test ?? false,
        trialDays: args.trialDays ?? 0,
        createdAt: Math.floor(ctx.now() / 1000) * 1000,
        updatedAt: Math.floor(ctx.now() / 1000) * 1000,
        currentPeriodEnd: null,
        returnUrl: args.returnUrl,
        lineItems: items,
      }
      ctx.shop.installation.subscriptions.push(sub)
      ctx.store.changed()
      const confirmationUrl = `${ctx.runtime.baseUrl()}${confirmationPath(ctx.shop.info.myshopifyDomain, sub.id)}`
      return { appSubscription: sub, confirmationUrl, userErrors: [] }
    },
  },
}

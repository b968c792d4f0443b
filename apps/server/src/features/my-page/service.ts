import type { MyPageContract, MyPageSubscriptions } from '@teiki/contract'
import {
  attributeValue,
  CARRIERS,
  DELIVERY_TIME_ATTRIBUTE,
  DELIVERY_TIME_LABELS,
  dateMoveWindow,
  deliveryDateOf,
  type MyPageSettings,
  nextOrderDates,
  prefectureCode,
  prefectureName,
  statusLabel,
  subscriberRefusals,
} from '@teiki/domain'
import { nextOrderRules } from '../../billing/order-attributes.ts'
import { scheduleAfter } from '../../billing/schedule.ts'
import type { DbClient } from '../../db/pool.ts'
import { unauthenticated } from '../../http/app-error.ts'
import { lineIdOf } from '../../platform/gid.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { createCancellationReasonService } from '../cancellation-reasons/service.ts'
import { deliverySettingsOf } from '../delivery/service.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { cachedContext } from './context-cache.ts'
import { contractsOfCustomer, type SubscriberContractRow } from './repo.ts'
import { myPageSettingsOf } from './settings-service.ts'
import { inGroup2, targetVariants } from './subscriber-repo.ts'

/**
 * マイページ (issue 26): the signed-in subscriber's own contracts of this shop, as they read
 * them — status in Japanese, the next order's billing and delivery day (domain
 * `nextOrderDates`, the dates billing writes), 配送時間帯, lines with prices, address in Japanese
 * order, card, latest orders — with the changes the rules allow now, the products their group
 * may switch to, the carrier's slots and the shop's cancellation reasons. Nobody signed in: 401.
 */
export async function subscriberContracts(
  db: DbClient,
  shop: ShopRow,
  customerId: string | null,
  now = new Date(),
): Promise<MyPageSubscriptions> {
  if (customerId === null)
    throw unauthenticated('マイページをご覧になるには、ストアのアカウントにログインしてください。')
  const [rows, context] = await Promise.all([
    contractsOfCustomer(db, shop.id, customerId),
    shopContext(db, shop),
  ])
  const group2 = context.twoGroups && (await inGroup2(db, shop.id, customerId))
  const rules: ViewRules = { ...context.rules, now }
  return {
    contracts: rows.map((row) => contractView(row, rules)),
    swapVariants: context.variants
      .filter((v) => v.customer_group === (group2 ? 2 : 1))
      .map((v) => ({ variantId: v.variant_id, title: v.title, price: amount(v.price) })),
    slots: context.slots,
    cancellationReasons: context.reasons,
  }
}

/** One of this customer's contracts as the page shows it after a change; null when not theirs. */
export async function subscriberContract(
  db: DbClient,
  shop: ShopRow,
  customerId: string,
  contractId: string,
  now = new Date(),
): Promise<MyPageContract | null> {
  const [row] = await contractsOfCustomer(db, shop.id, customerId, contractId)
  return row ? contractView(row, { ...(await shopContext(db, shop)).rules, now }) : null
}

type ViewRules = {
  dates: Parameters<typeof nextOrderDates>[1]
  settings: MyPageSettings
  now: Date
  timeZone: string
}

/** What every subscriber's page of a shop shares: its rules and lists (shop settings, not the customer's). */
type ShopContext = {
  rules: Omit<ViewRules, 'now'>
  slots: MyPageSubscriptions['slots']
  reasons: MyPageSubscriptions['cancellationReasons']
  twoGroups: boolean
  variants: Awaited<ReturnType<typeof targetVariants>>
}

function shopContext(db: DbClient, shop: ShopRow): Promise<ShopContext> {
  return cachedContext(shop.id, () => loadShopContext(db, shop))
}

async function loadShopContext(db: DbClient, shop: ShopRow): Promise<ShopContext> {
  const [dates, settings, delivery, reasons, twoGroups, variants] = await Promise.all([
    nextOrderRules(db, shop),
    myPageSettingsOf(db, shop.id),
    deliverySettingsOf(db, shop.id),
    createCancellationReasonService(db).list(shop),
    isFlagOn(db, shop.id, 'two_customer_groups'),
    targetVariants(db, shop.id),
  ])
  return {
    rules: { dates, settings, timeZone: shop.iana_timezone },
    slots: [
      { value: 'NONE', label: '指定なし' },
      ...CARRIERS[delivery.carrier].slots.map((s) => ({
        value: s.slot,
        label: DELIVERY_TIME_LABELS[s.slot],
      })),
    ],
    reasons: reasons.reasons.map((r) => ({ id: r.id, reason: r.reason })),
    twoGroups,
    variants,
  }
}

/** Each change's refusal (null: allowed) and the window for moving the next order. */
function changesOf(row: SubscriberContractRow, rules: ViewRules) {
  const state = {
    status: row.status,
    nextBillingAt: row.next_billing_date,
    ordersSoFar: row.orders_so_far,
    minCycles: row.billing_policy?.minCycles ?? null,
  }
  const refusals: Record<string, string | null> = subscriberRefusals(state, rules)
  let dateWindow: MyPageContract['dateWindow'] = null
  if (row.next_billing_date && row.billing_policy?.interval && refusals.date === null) {
    const following = scheduleAfter(
      { createdAt: row.created_at.toISOString(), billingPolicy: row.billing_policy as never },
      row.next_billing_date,
      rules.timeZone,
    )
    dateWindow = dateMoveWindow(row.next_billing_date, following, {
      now: rules.now,
      timeZone: rules.timeZone,
      lockDays: rules.settings.lockDays,
    })
  }
  return { refusals, dateWindow }
}

const text = (v: string | null | undefined) => v ?? ''
const amount = (v: string | null) => (v === null ? null : Number(v))

function addressView(row: SubscriberContractRow): MyPageContract['address'] {
  const a = row.delivery_method?.address
  if (!a) return null
  const code = prefectureCode(a.provinceCode ?? a.province)
  return {
    name: [text(a.lastName), text(a.firstName)].filter(Boolean).join(' '),
    zip: text(a.zip),
    prefecture: code ? prefectureName(code) : text(a.province),
    city: text(a.city),
    address1: text(a.address1),
    address2: text(a.address2),
  }
}

function contractView(row: SubscriberContractRow, rules: ViewRules): MyPageContract {
  const next = nextOrderDates(
    {
      status: row.status,
      nextBillingAt: row.next_billing_date,
      promisedDate: deliveryDateOf(row.custom_attributes),
    },
    rules.dates,
  )
  const card = row.payment_method?.instrument
  return {
    contractId: row.id,
    status: row.status,
    statusLabel: statusLabel[row.status as keyof typeof statusLabel] ?? row.status,
    nextBillingDate: next?.billingDate ?? null,
    nextDeliveryDate: next?.deliveryDate ?? null,
    deliveryTime: attributeValue(row.custom_attributes, DELIVERY_TIME_ATTRIBUTE),
    currencyCode: row.currency_code,
    lines: row.lines.map((l) => ({
      lineId: lineIdOf(l.id),
      title: l.title,
      variantTitle: l.variant_title,
      quantity: l.quantity,
      unitPrice: amount(l.current_price),
      sellingPlanName: l.selling_plan_name,
    })),
    address: addressView(row),
    card: card?.brand && card.lastDigits ? { brand: card.brand, lastDigits: card.lastDigits } : null,
    orders: row.orders.map((o) => ({
      name: text(o.name),
      createdAt: new Date(o.created_at).toISOString(),
      total: amount(o.total_amount),
    })),
    ...changesOf(row, rules),
  }
}

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
  SUBSCRIBER_ACTIONS,
  statusLabel,
  subscriberRefusal,
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
import { contractsOfCustomer, type SubscriberContractRow } from './repo.ts'
import { myPageSettingsOf } from './settings-service.ts'
import { swapVariantsFor } from './subscriber-repo.ts'

/**
 * マイページ (issue 26, first step): the signed-in subscriber's own contracts of this shop, as
 * they read them — status in Japanese, the next order's billing and delivery day (domain
 * `nextOrderDates`, the dates billing writes), 配送時間帯, lines with prices, address in Japanese
 * order, card, latest orders. Nobody signed in: 401 asking them to sign in.
 */
export async function subscriberContracts(
  db: DbClient,
  shop: ShopRow,
  customerId: string | null,
  now = new Date(),
): Promise<MyPageSubscriptions> {
  if (customerId === null)
    throw unauthenticated('マイページをご覧になるには、ストアのアカウントにログインしてください。')
  const rows = await contractsOfCustomer(db, shop.id, customerId)
  const [rules, delivery, reasons, twoGroups] = await Promise.all([
    viewRules(db, shop, now),
    deliverySettingsOf(db, shop.id),
    createCancellationReasonService(db).list(shop),
    isFlagOn(db, shop.id, 'two_customer_groups'),
  ])
  const swaps = await swapVariantsFor(db, shop.id, customerId, twoGroups)
  return {
    contracts: rows.map((row) => contractView(row, rules)),
    swapVariants: swaps.map((v) => ({ variantId: v.variant_id, title: v.title, price: amount(v.price) })),
    slots: [
      { value: 'NONE', label: '指定なし' },
      ...CARRIERS[delivery.carrier].slots.map((s) => ({
        value: s.slot,
        label: DELIVERY_TIME_LABELS[s.slot],
      })),
    ],
    cancellationReasons: reasons.reasons.map((r) => ({ id: r.id, reason: r.reason })),
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
  return row ? contractView(row, await viewRules(db, shop, now)) : null
}

type ViewRules = {
  dates: Parameters<typeof nextOrderDates>[1]
  settings: MyPageSettings
  now: Date
  timeZone: string
}

async function viewRules(db: DbClient, shop: ShopRow, now: Date): Promise<ViewRules> {
  const [dates, settings] = await Promise.all([nextOrderRules(db, shop), myPageSettingsOf(db, shop.id)])
  return { dates, settings, now, timeZone: shop.iana_timezone }
}

/** Each change's refusal (null: allowed) and the window for moving the next order. */
function changesOf(row: SubscriberContractRow, rules: ViewRules) {
  const state = {
    status: row.status,
    nextBillingAt: row.next_billing_date,
    ordersSoFar: row.orders_so_far,
    minCycles: row.billing_policy?.minCycles ?? null,
  }
  const refusals = Object.fromEntries(
    SUBSCRIBER_ACTIONS.map((a) => [a, subscriberRefusal(a, state, rules)]),
  ) as Record<string, string | null>
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

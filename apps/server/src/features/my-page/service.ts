import type { MyPageContract, MyPageSubscriptions } from '@teiki/contract'
import {
  attributeValue,
  DELIVERY_TIME_ATTRIBUTE,
  deliveryDateOf,
  nextOrderDates,
  prefectureCode,
  prefectureName,
  statusLabel,
} from '@teiki/domain'
import { nextOrderRules } from '../../billing/order-attributes.ts'
import type { DbClient } from '../../db/pool.ts'
import { unauthenticated } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { contractsOfCustomer, type SubscriberContractRow } from './repo.ts'

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
): Promise<MyPageSubscriptions> {
  if (customerId === null)
    throw unauthenticated('マイページをご覧になるには、ストアのアカウントにログインしてください。')
  const rows = await contractsOfCustomer(db, shop.id, customerId)
  if (rows.length === 0) return { contracts: [] }
  const dates = await nextOrderRules(db, shop)
  return { contracts: rows.map((row) => contractView(row, dates)) }
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

function contractView(
  row: SubscriberContractRow,
  dates: Parameters<typeof nextOrderDates>[1],
): MyPageContract {
  const next = nextOrderDates(
    {
      status: row.status,
      nextBillingAt: row.next_billing_date,
      promisedDate: deliveryDateOf(row.custom_attributes),
    },
    dates,
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
  }
}

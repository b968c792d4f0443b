import { APP_ORDER_ATTRIBUTE_KEYS, cyclesCover, type SkuConversion } from '../settings/settings-json.ts'
import {
  DELIVERY_DATE_ATTRIBUTE,
  DELIVERY_TIME_ATTRIBUTE,
  deliveryTimeSlot,
  withAttribute,
} from '../subscriptions/delivery.ts'
import { type CarrierKey, slotCode } from './carriers.ts'

/** The carrier's code of the time slot (ヤマト 1921 …), beside the slot's label the contract keeps. */
export const DELIVERY_TIME_CODE_ATTRIBUTE = '配送時間帯コード'
/** Which order of the subscription this is (1 = the first purchase). */
export const ORDER_COUNT_ATTRIBUTE = '定期回数'
/** The SKUs the warehouse picks, after the shop's SKU conversions: `GRANOLA-500-FIRST×2、LEAFLET×2`. */
export const SHIP_SKUS_ATTRIBUTE = '出荷SKU'

type Attribute = { key: string; value: string | null }

export type OrderAttributesInput = {
  /** The contract's custom attributes (its 配送時間帯 label, お届け予定日, the checkout's others). */
  contractAttributes: readonly Attribute[]
  /** This order's number in the subscription (定期回数). */
  cycle: number
  /** This order's お届け予定日 (YYYY-MM-DD), or null when none is promised. */
  deliveryDate: string | null
  carrier: CarrierKey
  /** 設定 › 注文メモ属性: fixed keys and values. */
  noteAttributes: ReadonlyArray<{ key: string; value: string }>
  /** 設定 › SKU変換. */
  skuConversions: readonly SkuConversion[]
  /** The order's lines (the contract's, which the platform copies onto the order). */
  lines: ReadonlyArray<{ sku: string | null; quantity: number }>
}

/**
 * The note attributes of a subscription order, the one list the warehouse reads: the contract's
 * attributes, then the merchant's fixed ones, then the app's own (お届け予定日, the slot's
 * carrier code, 定期回数, 出荷SKU), each key once (a later one replaces an earlier one in place).
 */
export function orderAttributes(input: OrderAttributesInput): Array<{ key: string; value: string }> {
  // A key the contract holds twice is kept once, with its last value.
  let list: Array<{ key: string; value: string }> = []
  for (const a of input.contractAttributes) list = withAttribute(list, a.key, a.value ?? '')
  list = withAttribute(list, DELIVERY_DATE_ATTRIBUTE, input.deliveryDate)
  for (const a of input.noteAttributes) {
    if (!APP_ORDER_ATTRIBUTE_KEYS.includes(a.key)) list = withAttribute(list, a.key, a.value)
  }
  const slot = deliveryTimeSlot(list.find((a) => a.key === DELIVERY_TIME_ATTRIBUTE)?.value)
  list = withAttribute(list, DELIVERY_TIME_CODE_ATTRIBUTE, slotCode(input.carrier, slot))
  list = withAttribute(list, ORDER_COUNT_ATTRIBUTE, String(input.cycle))
  const skus =
    input.skuConversions.length > 0 ? shipSkus(input.lines, input.skuConversions, input.cycle) : null
  return withAttribute(list, SHIP_SKUS_ATTRIBUTE, skus)
}

/**
 * The SKUs to ship for order `cycle` with their units: each line's SKU as the first conversion
 * covering the cycle turns it (one SKU into several joined by `+`, each in the line's quantity);
 * a line without an SKU is left out. Equal SKUs are added together, in the order they first
 * appear. A null cycle (unknown) applies only the conversions without a cycle range.
 */
export function convertedSkus(
  lines: ReadonlyArray<{ sku: string | null; quantity: number }>,
  conversions: readonly SkuConversion[],
  cycle: number | null,
): Array<{ sku: string; quantity: number }> {
  const units = new Map<string, number>()
  for (const line of lines) {
    if (!line.sku) continue
    const rule = conversions.find(
      (c) => c.from === line.sku && (cycle === null ? !c.cycles : cyclesCover(c.cycles, cycle)),
    )
    const skus = rule ? rule.to.split('+').map((s) => s.trim()) : [line.sku]
    for (const sku of skus) units.set(sku, (units.get(sku) ?? 0) + line.quantity)
  }
  return [...units].map(([sku, quantity]) => ({ sku, quantity }))
}

/** The 出荷SKU attribute's text: `GRANOLA-500-FIRST×2、LEAFLET×2`. */
export function shipSkus(
  lines: ReadonlyArray<{ sku: string | null; quantity: number }>,
  conversions: readonly SkuConversion[],
  cycle: number,
): string {
  return convertedSkus(lines, conversions, cycle)
    .map((u) => `${u.sku}×${u.quantity}`)
    .join('、')
}

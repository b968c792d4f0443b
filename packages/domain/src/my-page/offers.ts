import { formatMoney } from '../format/money.ts'

/**
 * 解約防止オファー (issue 26): for each cancellation reason the merchant may set one offer, shown
 * once to a subscriber who picks that reason: accepted, it is applied and the contract stays;
 * declined, the contract is cancelled with the reason. A discount is the platform's own manual
 * discount on the contract (subscriptionDraftDiscountAdd, on every line, for the next N orders),
 * so the charge, the order and the platform's screens agree on it.
 */
export type RetentionOffer =
  | { kind: 'skip' }
  | { kind: 'pause'; cycles: number }
  | { kind: 'percent'; percent: number; orders: number }
  | { kind: 'amount'; amount: number; orders: number }
  | { kind: 'swap'; variantId: string; title: string }

export const OFFER_KINDS = ['skip', 'pause', 'percent', 'amount', 'swap'] as const

/** The most orders a discount offer may cover. */
export const MAX_OFFER_ORDERS = 12

/** What is wrong with an offer the merchant set, in Japanese; null when it can be saved. */
export function offerProblem(offer: RetentionOffer): string | null {
  const whole = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max
  switch (offer.kind) {
    case 'skip':
      return null
    case 'pause':
      return whole(offer.cycles, 1, 3) ? null : 'お休みの回数は1〜3回で指定してください'
    case 'percent':
      if (!whole(offer.percent, 1, 100)) return '割引率は1〜100%の整数で指定してください'
      return whole(offer.orders, 1, MAX_OFFER_ORDERS)
        ? null
        : `割引する回数は1〜${MAX_OFFER_ORDERS}回で指定してください`
    case 'amount':
      if (!whole(offer.amount, 1, 1_000_000)) return '割引額は1円以上の整数で指定してください'
      return whole(offer.orders, 1, MAX_OFFER_ORDERS)
        ? null
        : `割引する回数は1〜${MAX_OFFER_ORDERS}回で指定してください`
    case 'swap':
      return /^\d{1,20}$/.test(offer.variantId) ? null : '変更先の商品を選んでください'
  }
}

const orders = (n: number) => (n === 1 ? '次回' : `次回から${n}回`)

/** The offer as the subscriber reads it: 「次回10%オフ」「次回から3回 ¥500引き」. */
export function offerLabel(offer: RetentionOffer, currencyCode = 'JPY'): string {
  switch (offer.kind) {
    case 'skip':
      return '次回のお届けをスキップ'
    case 'pause':
      return `${offer.cycles}回お休み`
    case 'percent':
      return `${orders(offer.orders)}${offer.percent}%オフ`
    case 'amount':
      return `${orders(offer.orders)} ${formatMoney(offer.amount, currencyCode)}引き`
    case 'swap':
      return `「${offer.title}」に変更`
  }
}

/** The title of the platform's discount an accepted discount offer adds (shown on the platform's screens). */
export function offerDiscountTitle(offer: RetentionOffer, currencyCode = 'JPY'): string {
  return `解約防止オファー: ${offerLabel(offer, currencyCode)}`
}

/**
 * The revenue an accepted offer keeps, as 解約理由 reports it: the orders the offer commits the
 * subscriber to, at the contract's price per order now (`orderAmount`), less the offer's
 * discount — one order for a skip, a pause or a swap (the order after it), N orders for a
 * discount. Never below 0. Whole minor units of JPY (the amounts are yen).
 */
export function revenueKept(offer: RetentionOffer, orderAmount: number): number {
  switch (offer.kind) {
    case 'percent':
      return Math.max(0, Math.round(orderAmount * (1 - offer.percent / 100)) * offer.orders)
    case 'amount':
      return Math.max(0, (orderAmount - offer.amount) * offer.orders)
    default:
      return Math.max(0, orderAmount)
  }
}

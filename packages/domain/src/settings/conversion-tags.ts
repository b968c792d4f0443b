/**
 * 計測タグ as the app's web pixel sends them (ADR 0039): the placeholders a tag's URL may carry
 * and the requests one completed checkout makes. No imports: the pixel extension
 * (extensions/teiki-pixel) bundles this file as it is, and the settings check
 * (thank-you.ts) uses the same placeholders and URL rule.
 */

/** What a tag's URL may carry, as the pixel fills it from the checkout_completed event. */
export const TAG_PLACEHOLDERS = {
  order_id: '注文ID（数字）',
  total: 'お支払い合計（税込。円は整数）',
  subtotal: '商品の小計',
  currency: '通貨コード（JPY）',
} as const
export type TagPlaceholder = keyof typeof TAG_PLACEHOLDERS
export type TagValues = Record<TagPlaceholder, string>

export const PLACEHOLDER = /\{([^{}]*)\}/g

/** The request's values put into a tag's URL, each encoded as one URL component. */
export function expandTagUrl(url: string, values: TagValues): string {
  return url.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? encodeURIComponent(wellFormed(values[name as TagPlaceholder])) : whole,
  )
}

/** Lone surrogates (which encodeURIComponent throws on) as U+FFFD. */
const wellFormed = (value: string) =>
  value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/** http only to this machine (a local test endpoint), https anywhere. */
export function allowedUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'https:') return true
    return parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)
  } catch {
    return false
  }
}

type CheckoutMoney = { amount?: number | string } | null | undefined
/** The parts of the pixel's `checkout_completed` event a tag reads. */
export type TagCheckout = {
  order?: { id?: string | number | null } | null
  totalPrice?: CheckoutMoney
  subtotalPrice?: CheckoutMoney
  currencyCode?: string | null
  lineItems?: Array<{ sellingPlanAllocation?: unknown } | null> | null
}

/**
 * The URLs the pixel requests for one completed checkout: each tag that applies (a
 * subscription-only tag needs a line bought on a selling plan), its placeholders filled.
 * `settingText` is the pixel's `conversionTags` setting; anything unreadable sends nothing.
 */
export function conversionRequests(settingText: string | undefined, checkout: TagCheckout): string[] {
  let tags: Array<{ url?: unknown; subscriptionOnly?: unknown }>
  try {
    tags = JSON.parse(settingText || '[]')
    if (!Array.isArray(tags)) return []
  } catch {
    return []
  }
  const orderId = String(checkout.order?.id ?? '').replace(/^gid:\/\/shopify\/(Order|OrderIdentity)\//, '')
  if (orderId === '') return []
  const money = (m: CheckoutMoney) => String(Number(m?.amount ?? 0))
  const values: TagValues = {
    order_id: orderId,
    total: money(checkout.totalPrice),
    subtotal: money(checkout.subtotalPrice),
    currency: checkout.currencyCode ?? '',
  }
  const subscription = (checkout.lineItems ?? []).some((l) => l?.sellingPlanAllocation)
  return tags
    .filter((t) => typeof t?.url === 'string' && (t.subscriptionOnly === false || subscription))
    .map((t) => expandTagUrl(t.url as string, values))
    .filter(allowedUrl)
}

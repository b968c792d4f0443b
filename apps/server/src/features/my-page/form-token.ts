import { createHmac, timingSafeEqual } from 'node:crypto'
import { toZonedDate } from '@teiki/domain'
import type { ShopRow } from '../../platform/shops-repo.ts'

/**
 * The token of マイページ's forms (CSRF): a form on another site can post to the shop's
 * `/apps/teiki/…` with the customer's cookies, and the platform would sign it as theirs. The page
 * puts this token in each form; a post without today's or yesterday's token of this customer is
 * refused. Keyed with the shop's own secret material, never sent anywhere else.
 */
export function formToken(shop: ShopRow, customerId: string, now = new Date(), daysAgo = 0): string {
  const day = toZonedDate(new Date(now.getTime() - daysAgo * 86_400_000), 'UTC')
  const key = Buffer.concat([shop.secret_hash ?? Buffer.alloc(0), Buffer.from(shop.access_token ?? '')])
  return createHmac('sha256', key).update(`my-page:${shop.id}:${customerId}:${day}`).digest('base64url')
}

export function formTokenValid(shop: ShopRow, customerId: string, token: unknown, now = new Date()): boolean {
  if (typeof token !== 'string') return false
  const given = Buffer.from(token)
  return [0, 1].some((d) => {
    const expected = Buffer.from(formToken(shop, customerId, now, d))
    return expected.length === given.length && timingSafeEqual(expected, given)
  })
}

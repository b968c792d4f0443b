import { z } from 'zod'

/**
 * GET /extensions/thank-you?order=<Order GID> — what the thank-you page block
 * (extensions/teiki-thank-you, purchase.thank-you.block.render) shows for the order it was
 * placed on: the merchant's message and, per subscription contract the order started, its first
 * delivery as chosen at the cart and the next order's billing and delivery days. Authenticated
 * by the checkout's session token (a JWT the platform signs with the app's secret; `dest` is
 * the shop), never by anything the page sends besides it.
 */
export const ZThankYouQuery = z.object({
  order: z
    .string()
    .max(80)
    .regex(/^(gid:\/\/shopify\/(Order|OrderIdentity)\/)?\d{1,20}$/, '注文IDが正しくありません'),
})

export const ZThankYouContract = z.object({
  contractId: z.string(),
  /** The selling plans of its lines (毎月お届け …), joined with ・. */
  planName: z.string(),
  /** お届け希望日 chosen at the cart (YYYY-MM-DD), or null for 指定なし. */
  firstDeliveryDate: z.string().nullable(),
  /** 配送時間帯 label (19時〜21時), or null for 指定なし. */
  deliveryTime: z.string().nullable(),
  /** The next order's billing day in the shop's zone (YYYY-MM-DD), null when none is coming. */
  nextBillingDate: z.string().nullable(),
  /** The お届け予定日 billing will write on that order (the same rule: renewalDeliveryDate). */
  nextDeliveryDate: z.string().nullable(),
})
export type ThankYouContract = z.infer<typeof ZThankYouContract>

export const ZThankYouBlock = z.object({
  message: z.string(),
  /** The order is known but its contracts are not in the app yet (the webhook is on its way): ask again shortly. */
  pending: z.boolean(),
  contracts: z.array(ZThankYouContract),
})
export type ThankYouBlock = z.infer<typeof ZThankYouBlock>

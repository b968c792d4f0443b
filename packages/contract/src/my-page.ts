import { z } from 'zod'

/**
 * マイページ (issue 26): what the subscriber reads of their own subscriptions, through the app
 * proxy (`/apps/teiki/…` → `/proxy/…`, signed by the platform) or the customer account page.
 * Only the signed-in customer's contracts of that shop, never another's.
 */
export const ZMyPageContract = z.object({
  contractId: z.string(),
  status: z.string(),
  /** 有効 / 一時停止 / 解約済み … */
  statusLabel: z.string(),
  /** The next order as billing will make it (domain nextOrderDates); null when none is coming. */
  nextBillingDate: z.string().nullable(),
  nextDeliveryDate: z.string().nullable(),
  /** 配送時間帯 label, or null for 指定なし. */
  deliveryTime: z.string().nullable(),
  currencyCode: z.string(),
  lines: z.array(
    z.object({
      title: z.string(),
      variantTitle: z.string().nullable(),
      quantity: z.number().int(),
      /** The line's price per unit as the contract holds it now. */
      unitPrice: z.number().nullable(),
      sellingPlanName: z.string().nullable(),
    }),
  ),
  /** お届け先 in Japanese order: 〒, prefecture, city, address, building; the name 姓 名. */
  address: z
    .object({
      name: z.string(),
      zip: z.string(),
      prefecture: z.string(),
      city: z.string(),
      address1: z.string(),
      address2: z.string(),
    })
    .nullable(),
  card: z.object({ brand: z.string(), lastDigits: z.string() }).nullable(),
  /** The contract's latest orders (newest first, at most 5). */
  orders: z.array(z.object({ name: z.string(), createdAt: z.string(), total: z.number().nullable() })),
})
export type MyPageContract = z.infer<typeof ZMyPageContract>

export const ZMyPageSubscriptions = z.object({ contracts: z.array(ZMyPageContract) })
export type MyPageSubscriptions = z.infer<typeof ZMyPageSubscriptions>

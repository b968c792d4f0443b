import type { ShopState } from '@teiki/shopify-emulator'
import type pg from 'pg'

/** One comparable line per contract: what the platform holds and what the mirror must hold. */
export type ContractDigest = { id: string; status: string; nextBillingDate: string | null; lines: string }

export function platformDigest(shop: ShopState): ContractDigest[] {
  return shop.contracts
    .map((c) => ({
      id: String(c.id),
      status: c.status,
      nextBillingDate: c.nextBillingDate === null ? null : new Date(c.nextBillingDate).toISOString(),
      lines: c.lines.map((l) => `${l.variantId}x${l.quantity}`).join(','),
    }))
    .sort((a, b) => a.id.localeCompare(b.id))
}

export async function mirrorDigest(pool: pg.Pool, shopId: string): Promise<ContractDigest[]> {
  const { rows } = await pool.query<{
    id: string
    status: string
    next_billing_date: Date | null
    lines: string
  }>(
    `select c.id::text, c.status, c.next_billing_date,
       coalesce((select string_agg(l.variant_id || 'x' || l.quantity, ',' order by l.position)
                 from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id), '') as lines
     from subscription_contracts c where c.shop_id = $1`,
    [shopId],
  )
  return rows
    .map((r) => ({
      id: r.id,
      status: r.status,
      nextBillingDate: r.next_billing_date?.toISOString() ?? null,
      lines: r.lines,
    }))
    .sort((a, b) => a.id.localeCompare(b.id))
}

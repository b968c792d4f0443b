import type { VariantSummary } from '@teiki/contract'
import type { DbClient } from '../../db/pool.ts'

type VariantRow = {
  id: string
  product_id: string
  product_title: string
  title: string
  sku: string | null
  price: string | null
  image_url: string | null
}

const SELECT = `select v.id::text as id, v.product_id::text as product_id, p.title as product_title, v.title,
    v.sku, v.price::text as price, p.image_url
  from product_variants v
  join products p on p.shop_id = v.shop_id and p.id = v.product_id`

/** `1980.0000` → `1980`, `1980.5000` → `1980.5` (numeric(20,4) text as the platform writes prices). */
export function decimalText(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value
}

const toSummary = (row: VariantRow): VariantSummary => ({
  id: row.id,
  productId: row.product_id,
  productTitle: row.product_title,
  title: row.title,
  sku: row.sku,
  price: row.price === null ? null : decimalText(row.price),
  imageUrl: row.image_url,
})

const isId = (value: string) => /^\d{1,18}$/.test(value)

/** One variant of the shop, or undefined (unknown ids and other shops' variants alike). */
export async function findVariant(
  db: DbClient,
  shopId: string,
  id: string,
): Promise<VariantSummary | undefined> {
  if (!isId(id)) return undefined
  const { rows } = await db.query<VariantRow>(`${SELECT} where v.shop_id = $1 and v.id = $2::bigint`, [
    shopId,
    id,
  ])
  return rows[0] ? toSummary(rows[0]) : undefined
}

/**
 * Variants whose product title, variant title or SKU contains `query` (case-insensitive, as
 * literal text: `%` and `_` are not wildcards); a numeric query also matches the variant id.
 * Ordered by product title, then variant id. An empty query lists every variant.
 */
export async function searchVariants(
  db: DbClient,
  shopId: string,
  query: string,
  limit: number,
): Promise<VariantSummary[]> {
  const values: unknown[] = [shopId]
  const where = ['v.shop_id = $1']
  if (query) {
    values.push(query.toLowerCase())
    const term = `$${values.length}`
    const matches = [
      `strpos(lower(p.title), ${term}) > 0`,
      `strpos(lower(v.title), ${term}) > 0`,
      `strpos(lower(coalesce(v.sku, '')), ${term}) > 0`,
    ]
    if (isId(query)) {
      values.push(query)
      matches.push(`v.id = $${values.length}::bigint`)
    }
    where.push(`(${matches.join(' or ')})`)
  }
  values.push(limit)
  const { rows } = await db.query<VariantRow>(
    `${SELECT} where ${where.join(' and ')} order by p.title, v.id limit $${values.length}`,
    values,
  )
  return rows.map(toSummary)
}

import type { ProductWithVariants, VariantSummary } from '@teiki/contract'
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

type ProductRow = {
  id: string
  title: string
  image_url: string | null
  variants: Array<{ id: string; title: string; sku: string | null; price: string | null }> | null
}

/**
 * One page of the shop's products (by title, then id) whose title, or a variant's title or SKU,
 * contains `query` (case-insensitive, literal), each with its variants; and how many match.
 */
export async function listProducts(
  db: DbClient,
  shopId: string,
  query: string,
  page: { limit: number; offset: number },
): Promise<{ products: ProductWithVariants[]; total: number }> {
  const where = `p.shop_id = $1 and ($2 = '' or strpos(lower(p.title), $2) > 0 or exists (
      select 1 from product_variants v where v.shop_id = p.shop_id and v.product_id = p.id
        and (strpos(lower(v.title), $2) > 0 or strpos(lower(coalesce(v.sku, '')), $2) > 0)))`
  const term = query.toLowerCase()
  const [rows, count] = await Promise.all([
    db.query<ProductRow>(
      `select p.id::text, p.title, p.image_url,
         (select jsonb_agg(jsonb_build_object('id', v.id::text, 'title', v.title, 'sku', v.sku,
             'price', v.price::text) order by v.id)
          from product_variants v where v.shop_id = p.shop_id and v.product_id = p.id) as variants
       from products p where ${where} order by p.title, p.id limit $3 offset $4`,
      [shopId, term, page.limit, page.offset],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from products p where ${where}`, [
      shopId,
      term,
    ]),
  ])
  return {
    products: rows.rows.map((r) => ({
      id: r.id,
      title: r.title,
      imageUrl: r.image_url,
      variants: (r.variants ?? []).map((v) => ({
        ...v,
        price: v.price === null ? null : decimalText(v.price),
      })),
    })),
    total: count.rows[0]?.total ?? 0,
  }
}

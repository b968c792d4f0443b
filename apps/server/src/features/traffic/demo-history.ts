import type { DbClient } from '../../db/pool.ts'

/**
 * GENERATED DATA, NOT MEASURED: the demo shop's traffic history (issue 14 item 6). It makes up
 * 18 months of page views per utm values, up to yesterday (shop-local), and the source of about
 * two thirds of the demo contracts, so 流入元 and the persistence split by source show something
 * on the first start. Deterministic (a seeded PRNG), written once per shop (demo/app-data.ts),
 * and labelled as generated: `traffic_generated_history` (migration 0037) records the last day
 * it covers, and 流入元 says on screen that figures up to that day are generated. From today on,
 * page views and attributions are measured: the web pixel runs in the emulated store
 * (issue 23) and sends them like any shop's. Every figure on screen is computed from the rows by
 * the same code either way. The channels' stories: LINE and mail bring fewer but lasting
 * subscribers, Instagram many who leave sooner.
 */

type Channel = {
  source: string
  medium: string
  campaign: string
  content: string
  views: number
  keeps: number
}

const CHANNELS: Channel[] = [
  { source: 'instagram', medium: 'social', campaign: 'autumn_sale', content: 'reel', views: 38, keeps: 0.4 },
  { source: 'instagram', medium: 'social', campaign: 'new_year', content: 'story', views: 22, keeps: 0.4 },
  { source: 'google', medium: 'cpc', campaign: 'brand', content: '', views: 55, keeps: 0.6 },
  { source: 'google', medium: 'cpc', campaign: 'green_tea', content: '', views: 30, keeps: 0.5 },
  { source: 'yahoo', medium: 'cpc', campaign: 'brand', content: '', views: 14, keeps: 0.55 },
  { source: 'line', medium: 'message', campaign: 'monthly_news', content: '', views: 20, keeps: 0.85 },
  { source: 'newsletter', medium: 'email', campaign: 'welcome', content: 'banner', views: 9, keeps: 0.8 },
]
const DIRECT_VIEWS = 110
const HISTORY_DAYS = 548

function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Writes the generated history, through the shop-local day before today, and the row that
 * labels it as generated; returns how many contracts got a made-up source.
 */
export async function seedDemoTraffic(db: DbClient, shopId: string): Promise<number> {
  const rand = prng(Number(shopId) * 7919 + 14)
  const rows: Array<[string, string, string, string, string, number]> = []
  const { rows: days } = await db.query<{ through: string }>(
    `select ((now() at time zone iana_timezone)::date - 1)::text as through from shops where id = $1`,
    [shopId],
  )
  const through = days[0]!.through
  const start = Date.parse(`${through}T00:00:00Z`) - HISTORY_DAYS * 86_400_000
  for (let d = 0; d <= HISTORY_DAYS; d++) {
    const date = new Date(start + d * 86_400_000)
    const day = date.toISOString().slice(0, 10)
    // Weekends busier, a slow growth over the 18 months.
    const level = (1 + 0.25 * Number([0, 6].includes(date.getUTCDay()))) * (0.6 + (0.6 * d) / HISTORY_DAYS)
    for (const c of CHANNELS) {
      const views = Math.round(c.views * level * (0.7 + 0.6 * rand()))
      if (views > 0) rows.push([day, c.source, c.medium, c.campaign, c.content, views])
    }
    rows.push([day, '', '', '', '', Math.round(DIRECT_VIEWS * level * (0.7 + 0.6 * rand()))])
  }
  await db.query(
    `insert into traffic_daily (shop_id, day, source, medium, campaign, content, views)
     select $1, (r->>0)::date, r->>1, r->>2, r->>3, r->>4, (r->>5)::int from jsonb_array_elements($2::jsonb) r
     on conflict do nothing`,
    [shopId, JSON.stringify(rows)],
  )
  const { rows: contracts } = await db.query<{
    id: string
    customer_id: string
    created_at: Date
    orders: number
  }>(
    `select c.id::text, c.customer_id::text, c.created_at, coalesce(r.orders, 0) as orders
     from subscription_contracts c left join report_contracts r on r.shop_id = c.shop_id and r.contract_id = c.id
     where c.shop_id = $1 order by c.id`,
    [shopId],
  )
  const maxOrders = Math.max(1, ...contracts.map((c) => c.orders))
  const attributions = contracts.flatMap((c) => {
    if (rand() > 0.68) return []
    // Lasting contracts lean to the channels whose subscribers keep buying.
    const stays = c.orders / maxOrders
    const weights = CHANNELS.map((ch) => ch.views * (1 - Math.abs(ch.keeps - stays)))
    const pick = rand() * weights.reduce((a, b) => a + b, 0)
    let sum = 0
    const channel =
      CHANNELS.find((_, i) => {
        sum += weights[i]!
        return sum >= pick
      }) ?? CHANNELS[0]!
    const touchedAt = new Date(c.created_at.getTime() - Math.floor(rand() * 10 * 86_400_000))
    return [
      { contract_id: c.id, customer_id: c.customer_id, ...channel, touched_at: touchedAt.toISOString() },
    ]
  })
  await db.query(
    `insert into contract_attributions (shop_id, contract_id, customer_id, source, medium, campaign, content, touched_at)
     select $1, r.contract_id, r.customer_id, r.source, r.medium, r.campaign, r.content, r.touched_at
     from jsonb_to_recordset($2::jsonb) as r(contract_id bigint, customer_id bigint, source text, medium text,
       campaign text, content text, touched_at timestamptz)
     on conflict do nothing`,
    [shopId, JSON.stringify(attributions)],
  )
  await db.query(
    `insert into traffic_generated_history (shop_id, generated_through, attributed_contracts)
     values ($1, $2::date, $3) on conflict (shop_id) do nothing`,
    [shopId, through, attributions.length],
  )
  return attributions.length
}

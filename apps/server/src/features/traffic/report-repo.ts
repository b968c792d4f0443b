import { type DbClient, queryRows } from '../../db/pool.ts'

export type TrafficFilter = { source?: string; medium?: string; campaign?: string; content?: string }
type Row = {
  source: string
  medium: string
  campaign: string
  content: string
  access: number
  achieved: number
}

/**
 * Per utm values: page views of the range (traffic_daily) and the contracts attributed to them
 * that started in the range (contract_attributions × report_contracts). Filters match exactly.
 */
export function trafficRows(db: DbClient, shopId: string, from: string, to: string, f: TrafficFilter) {
  return queryRows<Row>(
    db,
    `with access as (
       select source, medium, campaign, content, sum(views)::int as n from traffic_daily
       where shop_id = $1 and day between $2::date and $3::date
         and ($4::text is null or source = $4) and ($5::text is null or medium = $5)
         and ($6::text is null or campaign = $6) and ($7::text is null or content = $7)
       group by 1, 2, 3, 4
     ), achieved as (
       select a.source, a.medium, a.campaign, a.content, count(*)::int as n
       from contract_attributions a
       join report_contracts r on r.shop_id = a.shop_id and r.contract_id = a.contract_id
       where a.shop_id = $1 and r.started_on between $2::date and $3::date
         and ($4::text is null or a.source = $4) and ($5::text is null or a.medium = $5)
         and ($6::text is null or a.campaign = $6) and ($7::text is null or a.content = $7)
       group by 1, 2, 3, 4
     )
     select coalesce(x.source, y.source) as source, coalesce(x.medium, y.medium) as medium,
       coalesce(x.campaign, y.campaign) as campaign, coalesce(x.content, y.content) as content,
       coalesce(x.n, 0) as access, coalesce(y.n, 0) as achieved
     from access x full join achieved y
       on x.source = y.source and x.medium = y.medium and x.campaign = y.campaign and x.content = y.content
     order by coalesce(y.n, 0) desc, coalesce(x.n, 0) desc, 1, 2, 3, 4
     limit 1000`,
    [shopId, from, to, f.source ?? null, f.medium ?? null, f.campaign ?? null, f.content ?? null],
  )
}

/** Every value each filter can take: seen in page views or attributions. */
export async function trafficValues(db: DbClient, shopId: string) {
  const { rows } = await db.query<{ dim: 'source' | 'medium' | 'campaign' | 'content'; value: string }>(
    `with seen as (
       select distinct source, medium, campaign, content from traffic_daily where shop_id = $1
       union
       select distinct source, medium, campaign, content from contract_attributions where shop_id = $1
     )
     select 'source' as dim, source as value from seen union
     select 'medium', medium from seen union
     select 'campaign', campaign from seen union
     select 'content', content from seen
     order by 1, 2`,
    [shopId],
  )
  const values = {
    source: [] as string[],
    medium: [] as string[],
    campaign: [] as string[],
    content: [] as string[],
  }
  for (const r of rows) if (r.value !== '') values[r.dim].push(r.value)
  return values
}

/** The last day of the shop's generated traffic history (migration 0037), or null: all measured. */
export async function generatedThrough(db: DbClient, shopId: string): Promise<string | null> {
  const { rows } = await db.query<{ through: string }>(
    'select generated_through::text as through from traffic_generated_history where shop_id = $1',
    [shopId],
  )
  return rows[0]?.through ?? null
}

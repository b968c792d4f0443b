import { Agent, request } from 'node:http'
import type pg from 'pg'

export type RawResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

/**
 * One request with the path sent byte for byte as given (`fetch` and `inject` normalise
 * `/./`, `/../` and some escapes before the server sees them, which would hide exactly the
 * spellings an attacker sends).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: hostname,
        port,
        method,
        path,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs `jobs` with at most `limit` in flight. */
export async function inBatches<T>(jobs: Array<() => Promise<T>>, limit = 8): Promise<T[]> {
  const results: T[] = new Array(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++
      results[i] = await jobs[i]!()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker))
  return results
}

/**
 * A digest of every row of `shopIds` in every table that has a `shop_id` column, plus their
 * `shops` rows: equal digests before and after mean nothing of theirs was written.
 */
export async function shopDataDigest(pool: pg.Pool, shopIds: string[]): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.columns
     where column_name = 'shop_id' and table_schema = current_schema() order by table_name`,
  )
  const digest: Record<string, string> = {}
  for (const { table_name: table } of tables) {
    const { rows } = await pool.query<{ n: string; md5: string | null }>(
      `select count(*)::text as n, md5(string_agg(t::text, '|' order by t::text)) as md5
       from "${table}" t where shop_id = any($1::bigint[])`,
      [shopIds],
    )
    digest[table] = `${rows[0]!.n}:${rows[0]!.md5 ?? ''}`
  }
  const { rows } = await pool.query<{ md5: string }>(
    `select md5(string_agg(s::text, '|' order by s.id)) as md5 from shops s where id = any($1::bigint[])`,
    [shopIds],
  )
  digest.shops = rows[0]!.md5
  return digest
}

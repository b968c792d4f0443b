import http from 'node:http'
import type pg from 'pg'

// The pixel's ingest endpoint under load (issue 14): `connections` browsers posting one page
// view each, back to back, for `seconds`. Every event id answered 2xx is remembered; afterwards
// the database must hold every one of them (stored ÷ acknowledged = 1.0 exactly). `kill` (ms)
// SIGKILLs the server that long into the run and starts another: requests in flight then fail
// (not acknowledged), and the acknowledged ones must all be stored.

export type IngestResult = {
  seconds: number
  requests: number
  acknowledged: number
  errors: number
  hitsPerSecond: number
  p50Ms: number
  p95Ms: number
  stored: number
  storedOverAcknowledged: number
}

export async function ingestLoad(opts: {
  port: () => number
  shop: string
  key: string
  connections: number
  seconds: number
  runId: string
  onTick?: (elapsedMs: number) => Promise<void> | void
}): Promise<{ acked: string[]; errors: number; latencies: number[]; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections })
  const acked: string[] = []
  const latencies: number[] = []
  let errors = 0
  let n = 0
  const started = Date.now()
  const deadline = started + opts.seconds * 1000
  const ticker = opts.onTick
    ? setInterval(() => {
        void opts.onTick!(Date.now() - started)
      }, 100)
    : null
  await Promise.all(
    Array.from({ length: opts.connections }, async (_, worker) => {
      while (Date.now() < deadline) {
        const id = `${opts.runId}-${worker}-${n++}`
        const body = JSON.stringify({
          events: [
            {
              id,
              name: 'page_viewed',
              timestamp: new Date().toISOString(),
              clientId: `bench-${worker}`,
              url: `https://bench.example/?utm_source=bench&utm_medium=load&utm_campaign=c${worker % 4}`,
            },
          ],
        })
        const t0 = process.hrtime.bigint()
        const status = await post(opts.port(), `/pixel/events?shop=${opts.shop}&key=${opts.key}`, body, agent)
        if (status === 200) {
          acked.push(id)
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
        } else {
          errors++
          if (status === 0) await new Promise((r) => setTimeout(r, 20))
        }
      }
    }),
  )
  if (ticker) clearInterval(ticker)
  agent.destroy()
  return { acked, errors, latencies, seconds: (Date.now() - started) / 1000 }
}

function post(port: number, path: string, body: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'text/plain' } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', () => resolve(0))
      },
    )
    req.on('error', () => resolve(0))
    req.end(body)
  })
}

/** How many of the acknowledged ids the database holds. */
export async function storedOf(db: pg.Pool, shopId: string, ids: string[]): Promise<number> {
  let stored = 0
  for (let i = 0; i < ids.length; i += 50_000) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from traffic_hits where shop_id = $1 and event_id = any($2::text[])`,
      [shopId, ids.slice(i, i + 50_000)],
    )
    stored += rows[0]!.n
  }
  return stored
}

export function summarize(
  run: { acked: string[]; errors: number; latencies: number[]; seconds: number },
  stored: number,
): IngestResult {
  const sorted = [...run.latencies].sort((a, b) => a - b)
  const pct = (p: number) =>
    Math.round((sorted[Math.floor((p / 100) * (sorted.length - 1))] ?? 0) * 100) / 100
  return {
    seconds: Math.round(run.seconds * 10) / 10,
    requests: run.acked.length + run.errors,
    acknowledged: run.acked.length,
    errors: run.errors,
    hitsPerSecond: Math.round(run.acked.length / run.seconds),
    p50Ms: pct(50),
    p95Ms: pct(95),
    stored,
    storedOverAcknowledged: run.acked.length === 0 ? 0 : stored / run.acked.length,
  }
}

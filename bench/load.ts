import http from 'node:http'

export type LoadResult = {
  requests: number
  errors: number
  seconds: number
  rps: number
  p50Ms: number
  p95Ms: number
  p99Ms: number
}

/**
 * A closed-loop load generator: `connections` workers on keep-alive sockets, each sending
 * the next path as soon as its previous answer arrived, for `seconds`. Every latency is
 * kept (no histogram buckets), so p50/p95 are exact. The same client measures the health
 * route, so the throughput ratio compares like with like.
 */
export async function runLoad(opts: {
  port: number
  connections: number
  seconds: number
  nextPath: (i: number) => string
  warmupSeconds?: number
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections })
  if (opts.warmupSeconds) await loop(opts.warmupSeconds, [], { n: 0 })
  const latencies: number[] = []
  const counters = { n: 0, errors: 0 }
  const started = process.hrtime.bigint()
  await loop(opts.seconds, latencies, counters)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0
  return {
    requests: latencies.length,
    errors: counters.errors ?? 0,
    seconds: round(seconds),
    rps: Math.round(latencies.length / seconds),
    p50Ms: round(pct(50)),
    p95Ms: round(pct(95)),
    p99Ms: round(pct(99)),
  }

  async function loop(seconds: number, sink: number[], counters: { n: number; errors?: number }) {
    const deadline = Date.now() + seconds * 1000
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (Date.now() < deadline) {
          const path = opts.nextPath(counters.n++)
          const t0 = process.hrtime.bigint()
          const status = await get(path)
          const ms = Number(process.hrtime.bigint() - t0) / 1e6
          if (status !== 200) counters.errors = (counters.errors ?? 0) + 1
          sink.push(ms)
        }
      }),
    )
  }

  function get(path: string): Promise<number> {
    return new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: opts.port, path, agent }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', () => resolve(0))
    })
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}

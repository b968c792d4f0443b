import { expect } from 'vitest'
import { type MainAndOther, startMainAndOther } from './emulated-app.ts'

export const CDP_SECRET = 's3cret-cdp'

export type CdpShops = MainAndOther

/**
 * Two synced shops (main: 20 contracts, other: 5) whose app takes the emulator's webhooks.
 * `jobs`: the app runs its jobs (the tag batch, the export) on pg-boss in a schema of this file's
 * own, writing files to `dataDir`.
 */
export async function startCdpShops(
  name: string,
  opts: { jobs?: boolean; dataDir?: string } = {},
): Promise<CdpShops> {
  const env = await startMainAndOther(name, {
    secret: CDP_SECRET,
    webhooks: true,
    ...(opts.jobs ? { jobsSchema: `pgboss_${name.replace(/\W/g, '_')}` } : {}),
    ...(opts.dataDir ? { appOptions: { dataDir: opts.dataDir } } : {}),
  })
  // Deliveries the sync's reads set off (none should change data, but let them land first).
  await env.emulator.idle()
  return env
}

export type Answer = {
  status: number
  body: Record<string, unknown>
  text: string
  headers: Record<string, unknown>
}

/** A merchant's call on `/app-admin{path}` as `domain`. */
export async function cdpCall(
  env: CdpShops,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  opts: { domain?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const sep = path.includes('?') ? '&' : '?'
  const res = await env.app.inject({
    method,
    url: `/app-admin${path}${sep}shop=${opts.domain ?? env.main}&secret=${CDP_SECRET}`,
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
  const json = (res.headers['content-type'] ?? '').toString().includes('json')
  return {
    status: res.statusCode,
    body: json && res.body ? res.json() : {},
    text: res.body,
    headers: res.headers,
  }
}

export function expectCdpError(res: Answer, status: number, message: RegExp | string) {
  expect(res.status, res.text).toBe(status)
  expect((res.body as { error: { message: string } }).error.message).toMatch(message)
}

/** Polls `check` until it answers something truthy (webhooks and batches land asynchronously). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > until) throw new Error('condition not reached in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

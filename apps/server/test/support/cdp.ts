import { readFileSync } from 'node:fs'
import type pg from 'pg'
import { expect } from 'vitest'
import { findInstalledShop } from '../../src/features/shops/repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import { type EmulatedApp, startEmulatedApp } from './emulated-app.ts'

export const CDP_SECRET = 's3cret-cdp'

export type CdpShops = EmulatedApp & { main: string; other: string }

/** Two synced shops (main: 20 contracts, other: 5) whose app takes the emulator's webhooks. */
export async function startCdpShops(name: string): Promise<CdpShops> {
  const stamp = `${process.pid}-${Date.now().toString(36)}`
  const main = `${name}-${stamp}.myshopify.com`
  const other = `${name}-other-${stamp}.myshopify.com`
  const env = await startEmulatedApp({
    shops: [
      { domain: main, contracts: 20 },
      { domain: other, contracts: 5 },
    ],
    secret: CDP_SECRET,
    webhooks: true,
  })
  for (const domain of [main, other]) {
    await fullSync(env.pool, env.clients[domain]!, (await findInstalledShop(env.pool, domain))!, {
      bulk: false,
    })
  }
  // Deliveries the sync's reads set off (none should change data, but let them land first).
  await env.emulator.idle()
  return { ...env, main, other }
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

/**
 * The mails the app decided for `to` (the mail outbox: the lead switches this one helper to the
 * SMTP catcher at the merge), with each attachment's bytes.
 */
export async function mailsTo(pool: pg.Pool, shopId: string, to: string) {
  const { rows } = await pool.query<{
    subject: string
    body: string
    status: string
    attachments: Array<{ filename: string; path: string; contentType: string }>
  }>(
    'select subject, body, status, attachments from mail_outbox where shop_id = $1 and to_address = $2 order by id',
    [shopId, to],
  )
  return rows.map((r) => ({
    ...r,
    files: r.attachments.map((a) => ({ ...a, bytes: readFileSync(a.path) })),
  }))
}

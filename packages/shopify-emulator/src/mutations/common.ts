import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { ContractRecord } from '../records.ts'
import { findById } from '../store.ts'
import { contractPayload } from '../webhooks/payloads.ts'

/** The platform's `{ code field message }`; types without `code` (UserError) simply ignore it. */
export type UserError = { code: string | null; field: string[] | null; message: string }

export const userError = (
  field: string[] | null,
  message: string,
  code: string | null = 'INVALID',
): UserError => ({
  code,
  field,
  message,
})

/** The record behind a GID of `type`, or undefined for a malformed, foreign or unknown id. */
export function lookup<T extends { id: number }>(
  items: readonly T[],
  gid: unknown,
  type: string,
): T | undefined {
  const id = typeof gid === 'string' ? idOf(gid, type) : null
  return id === null ? undefined : findById(items, id)
}

/** Every contract change: new revision, fresh updatedAt, a save and the update webhook. */
export function contractChanged(ctx: Context, c: ContractRecord, topics: string[] = []): void {
  c.updatedAt = Math.max(ctx.now(), c.updatedAt + 1)
  c.revisionId += 1
  ctx.store.changed()
  const payload = contractPayload(c)
  for (const topic of [...topics, 'subscription_contracts/update']) ctx.runtime.emit(ctx.shop, topic, payload)
}

/** Parses a DateTime argument to epoch ms; NaN when malformed. */
export const parseTime = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : Number.NaN)

import type { Context } from '../context.ts'
import { idOf, toGid } from '../gid.ts'
import type { ContractRecord } from '../records.ts'
import type { ShopExtra } from '../records-extra.ts'
import { extraOf } from '../shop-extra.ts'
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

/** A list of the shop's extra state whose records the app deletes by GID. */
export type DeletableList<K extends 'scriptTags' | 'webhookSubscriptions'> = {
  key: K
  type: string
  /** The user error's message for an unknown id. */
  missing: string
  /** The records the caller may delete (default: all of them). */
  visible?: (ctx: Context, items: ShopExtra[K]) => ShopExtra[K]
}

/** A delete mutation: the record `gid` names dropped and answered as its GID, or the user error on `id`. */
export function deleteRecord<K extends 'scriptTags' | 'webhookSubscriptions'>(
  ctx: Context,
  gid: string,
  list: DeletableList<K>,
): { deleted: string | null; userErrors: UserError[] } {
  const extra = extraOf(ctx.shop, ctx.now())
  const items = extra[list.key] as Array<{ id: number }>
  const record = lookup(list.visible ? list.visible(ctx, extra[list.key]) : items, gid, list.type)
  if (!record) return { deleted: null, userErrors: [userError(['id'], list.missing, null)] }
  ;(extra as Record<K, Array<{ id: number }>>)[list.key] = items.filter((r) => r !== record)
  ctx.store.changed()
  return { deleted: toGid(list.type, record.id), userErrors: [] }
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

/** Numeric ids of `gids` that exist in `items`, or the error (with `code`) naming the first one that does not. */
export function existingIds(
  items: ReadonlyArray<{ id: number }>,
  gids: readonly string[] | null | undefined,
  type: string,
  field: string[],
  code: string | null = null,
): number[] | UserError {
  const out: number[] = []
  for (const gid of gids ?? []) {
    const id = idOf(gid, type)
    if (id === null || !findById(items, id)) return userError(field, `${gid} does not exist`, code)
    out.push(id)
  }
  return out
}

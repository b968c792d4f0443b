import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import type { WebhookShop } from './repo.ts'

export type Payload = Record<string, unknown>

export type WebhookContext = {
  shop: WebhookShop
  topic: string
  payload: Payload
  /** X-Shopify-Triggered-At, when sent and valid. */
  triggeredAt: Date | null
  /** Null when the shop has no token (uninstalled): only topics that need no platform read run then. */
  client: AdminClient | null
  log: { info(obj: object, msg: string): void }
}

/** The writes of one delivery, run inside the transaction that records it. */
export type Apply = (tx: DbClient) => Promise<void>

/**
 * A topic's handler: platform reads happen in `prepare` (outside any transaction, so no
 * connection is held during network calls); the returned function does the writes.
 */
export type TopicHandler = {
  prepare(ctx: WebhookContext): Promise<Apply>
  /** Compliance topics arrive after the uninstall too; the rest are ignored then. */
  afterUninstall?: boolean
}

export const nothing: Apply = async () => {}

/** The payload's `admin_graphql_api_<field>` GID, else the numeric id made into one. */
export function gidFrom(
  payload: Payload,
  type: string,
  numericKey = 'id',
  gidKey = 'admin_graphql_api_id',
): string | null {
  const gid = payload[gidKey]
  if (typeof gid === 'string' && gid.startsWith('gid://')) return gid
  const id = payload[numericKey]
  return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? toGid(type, id) : null
}

export function requireClient(ctx: WebhookContext): AdminClient {
  if (!ctx.client) throw new Error(`${ctx.topic}: shop ${ctx.shop.domain} has no access token`)
  return ctx.client
}

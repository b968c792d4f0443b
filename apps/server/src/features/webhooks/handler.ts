import type { BillingEngine } from '../../billing/engine.ts'
import type { Db, DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import type { DeferRefresh } from './deferred.ts'
import type { WebhookShop } from './repo.ts'

export type Payload = Record<string, unknown>

export type WebhookContext = {
  /** For reads before the platform is asked; writes belong in the returned Apply. */
  db: Db
  shop: WebhookShop
  topic: string
  payload: Payload
  /** Null when the shop has no token (uninstalled): only topics that need no platform read run then. */
  client: AdminClient | null
  log: { info(obj: object, msg: string): void }
  /** Defers a read to a job (deferred.ts); absent without a job queue: read at once. */
  defer?: DeferRefresh
  /**
   * The app's billing engine, for the billing attempt topics (billing-topics.ts); absent in a
   * bare script: the handler then only mirrors outcomes and the next run's poll applies them.
   */
  billing?: WebhookBilling
}

/** What the billing attempt topics ask of the billing engine. */
export type WebhookBilling = Pick<
  BillingEngine,
  'ownsAttempt' | 'hasJobs' | 'onAttemptOutcome' | 'settleLater'
>

/** The writes of one delivery, run inside the transaction that records it. */
export type Apply = (tx: DbClient) => Promise<void>

/**
 * A topic's handler: platform reads happen in `prepare` (outside any transaction, so no
 * connection is held during network calls); the returned function does the writes. Null means
 * the platform does not back the delivery (the resource is not this shop's, an uninstall whose
 * token still works, a delete of something that still exists): it is acknowledged as ignored
 * and nothing is recorded, not even the delivery.
 */
export type TopicHandler = {
  prepare(ctx: WebhookContext): Promise<Apply | null>
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

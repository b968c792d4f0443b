import { type DbClient, queryRows } from '../db/pool.ts'
import { PROCESS_OWNER } from '../process/owner.ts'

/** A file sent with a mail: kept as a path, read when the mail is sent. */
export type OutboxAttachment = { filename: string; path: string; contentType: string; size: number | null }

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'stored' | 'failed'

export type OutboxRow = {
  id: string
  shop_id: string | null
  to_address: string
  subject: string
  body: string
  html_body: string | null
  reply_to: string | null
  from_name: string | null
  attachments: OutboxAttachment[]
  status: OutboxStatus
  attempts: number
  error: string | null
}

const COLUMNS =
  'id::text, shop_id::text, to_address, subject, body, html_body, reply_to, from_name, attachments, status, attempts, error'

/**
 * Records a mail to send, in the caller's transaction. Null when the same decision (shop and
 * dedupe key) was already recorded: the mail it stands for exists and is not decided twice.
 */
export async function insertPending(
  db: DbClient,
  mail: {
    shopId: string | null
    to: string
    subject: string
    text: string
    html?: string | null
    replyTo?: string | null
    fromName?: string | null
    attachments: OutboxAttachment[]
    dedupeKey: string | null
    /** Not due before now + this (0: due at once). */
    holdSeconds?: number
  },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `insert into mail_outbox (shop_id, to_address, subject, body, attachments, status, dedupe_key, next_attempt_at,
       html_body, reply_to, from_name)
     values ($1, $2, $3, $4, $5, 'pending', $6, now() + make_interval(secs => $7), $8, $9, $10)
     on conflict (coalesce(shop_id, 0), dedupe_key) where dedupe_key is not null do nothing
     returning id::text`,
    [
      mail.shopId,
      mail.to,
      mail.subject,
      mail.text,
      JSON.stringify(mail.attachments),
      mail.dedupeKey,
      mail.holdSeconds ?? 0,
      mail.html ?? null,
      mail.replyTo ?? null,
      mail.fromName ?? null,
    ],
  )
  return rows[0]?.id ?? null
}

/** A held mail becomes due now, with `text` as its body when given; false once someone took it. */
export async function releaseHeld(
  db: DbClient,
  id: string,
  text: string | null,
  html: string | null = null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update mail_outbox set next_attempt_at = now(), body = coalesce($2, body),
       html_body = case when $2::text is null then html_body else $3 end
     where id = $1 and status = 'pending' and attempts = 0`,
    [id, text, html],
  )
  return rowCount === 1
}

/** A sender that claimed a row and vanished: after this long the row is sent again. */
export const STALE_CLAIM_SECONDS = 300

/**
 * Takes rows to send: pending ones that are due, and rows whose sender died mid-send (its
 * claim is older than STALE_CLAIM_SECONDS, or its owner is one of `deadOwners`). `for update
 * skip locked` lets several processes drain at once without taking the same row; the claim is
 * committed before anything is sent, so a crash leaves the row `sending` with its claim time
 * and owner (and its attempt counted).
 */
export function claimDue(db: DbClient, opts: { ids?: string[]; limit: number; deadOwners?: string[] }) {
  return queryRows<OutboxRow>(
    db,
    `update mail_outbox set status = 'sending', claimed_at = now(), claimed_by = $5, attempts = attempts + 1
     where id in (
       select id from mail_outbox
       where ((status = 'pending' and next_attempt_at <= now())
           or (status = 'sending' and (claimed_at < now() - make_interval(secs => $2)
                                       or claimed_by = any($4::text[]))))
         and ($1::bigint[] is null or id = any($1::bigint[]))
       order by next_attempt_at, id limit $3
       for update skip locked)
     returning ${COLUMNS}`,
    [opts.ids ?? null, STALE_CLAIM_SECONDS, opts.limit, opts.deadOwners ?? [], PROCESS_OWNER],
  )
}

/** Who holds the mails being sent (to tell the claims of dead processes). */
export async function sendingOwners(db: DbClient): Promise<string[]> {
  const { rows } = await db.query<{ owner: string }>(
    `select distinct claimed_by as owner from mail_outbox where status = 'sending' and claimed_by is not null`,
  )
  return rows.map((r) => r.owner)
}

export async function markDelivered(
  db: DbClient,
  id: string,
  status: 'sent' | 'stored',
  messageId: string,
): Promise<void> {
  await db.query(
    `update mail_outbox set status = $2, sent_at = now(), message_id = $3, error = null
     where id = $1 and status = 'sending'`,
    [id, status, messageId],
  )
}

/** A failed send: tried again at `retryAt`, or given up (`failed`) when null. */
export async function markFailed(
  db: DbClient,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db.query(
    `update mail_outbox set status = case when $3::timestamptz is null then 'failed' else 'pending' end,
       next_attempt_at = coalesce($3::timestamptz, next_attempt_at), error = $2
     where id = $1 and status = 'sending'`,
    [id, error.slice(0, 2000), retryAt],
  )
}

export async function findMail(db: DbClient, id: string): Promise<OutboxRow | null> {
  const { rows } = await db.query<OutboxRow>(`select ${COLUMNS} from mail_outbox where id = $1`, [id])
  return rows[0] ?? null
}

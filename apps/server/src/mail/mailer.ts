import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import nodemailer from 'nodemailer'
import type { Db, DbClient } from '../db/pool.ts'
import { deadOwners } from '../process/owner.ts'
import {
  claimDue,
  insertPending,
  markDelivered,
  markFailed,
  type OutboxAttachment,
  type OutboxRow,
  releaseHeld,
  sendingOwners,
} from './outbox-repo.ts'

export type MailAttachment = { filename: string; path: string; contentType: string }

export type MailMessage = {
  /** The shop the mail is sent for (null: the app itself). */
  shopId: string | null
  to: string
  subject: string
  text: string
  /** The same content as HTML (templates render both); sent as the alternative part. */
  html?: string
  /** Where replies go (the shop's own address). */
  replyTo?: string
  /** Display name of the sender (the shop's name); the address stays MAIL_FROM's. */
  fromName?: string
  attachments?: MailAttachment[]
  /**
   * What the mail is about (`order:<cycle id>`, `export:<job id>`): one mail per shop and key,
   * however often the decision is repeated (a retried job, a second process).
   */
  dedupeKey?: string
  /**
   * Not sent before this many seconds have passed, unless `release`d: a mail whose text a
   * follow-up after the commit may still complete. If the process dies first, the drain sends
   * the text as decided once the hold is over.
   */
  holdSeconds?: number
}

/** pending: not sent yet (a failed try waits for its retry); sent: SMTP took it; stored: written as .eml. */
export type MailStatus = 'pending' | 'sent' | 'stored' | 'failed'

export type MailResult = {
  /** The `mail_outbox` row. */
  id: string
  status: MailStatus
  error: string | null
  /** Without SMTP: the RFC 822 message written to the outbox folder (`<id>.eml`). */
  emlPath: string | null
}

export type Mailer = {
  /**
   * Decides a mail: records it as pending in `db` (the caller's transaction, so the mail exists
   * exactly when the decision commits). Answers the row id, or null when the dedupe key was
   * used before. Nothing is sent: call `deliver` after the commit (or leave it to `drain`).
   */
  enqueue(db: DbClient, message: MailMessage): Promise<string | null>
  /** Sends these pending mails now (the ones another sender has not taken). */
  deliver(ids: string[]): Promise<MailResult[]>
  /**
   * Ends a held mail's hold, with its final text when given (only while nobody has taken it:
   * false once the drain sent it as decided). Call `deliver` after.
   */
  release(id: string, text?: string, html?: string): Promise<boolean>
  /**
   * Sends every mail that is due: pending ones (new, or waiting for their retry) and ones whose
   * sender died mid-send. Any number of processes may drain at once. Answers how many it took.
   */
  drain(): Promise<number>
  /** `enqueue` in its own transaction, then `deliver`: for a mail that decides nothing else. */
  send(message: MailMessage): Promise<MailResult>
  close(): void
}

export type MailerOptions = {
  db: Db
  /** `smtp://user:pass@host:587` or `smtps://…`. Unset: messages are written as .eml files into `outboxDir`. */
  smtpUrl?: string
  outboxDir: string
  /** Sender, e.g. `Teiki <no-reply@example.jp>`. */
  from: string
  /** Tries before a mail counts as failed (default 5). */
  maxAttempts?: number
}

/** Waits before try 2, 3, 4, 5 …: a short outage is bridged quickly, a long one is not hammered. */
const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200]
const DRAIN_BATCH = 20

/**
 * The app's one way to send mail, through the `mail_outbox` table (see migration 0009):
 * decided in the caller's transaction, sent after it. With SMTP the message goes to the server;
 * without it (the embedded default) nodemailer's stream transport renders it and it is written
 * to `<outboxDir>/<id>.eml`. Every message carries a Message-ID made from its row, so the rare
 * resend after a crash between the server's acceptance and our mark is the same message to the
 * receiving side. Headers and body are UTF-8 (a Japanese subject becomes RFC 2047 words).
 */
export function createMailer(opts: MailerOptions): Mailer {
  const smtp = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null
  const stream = smtp ? null : nodemailer.createTransport({ streamTransport: true, newline: 'windows' })
  const maxAttempts = opts.maxAttempts ?? 5
  const domain = /@([^>\s]+)/.exec(opts.from)?.[1] ?? 'teiki.invalid'
  const fromAddress = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from.trim()

  /** Sends one claimed row and records the outcome; never throws. */
  async function sendRow(row: OutboxRow): Promise<MailResult> {
    const messageId = `<outbox-${row.id}@${domain}>`
    const mail = {
      from: row.from_name ? { name: row.from_name, address: fromAddress } : opts.from,
      to: row.to_address,
      subject: row.subject,
      text: row.body,
      ...(row.html_body ? { html: row.html_body } : {}),
      ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      messageId,
      textEncoding: 'base64' as const,
      attachments: row.attachments.map((a) => ({
        filename: a.filename,
        path: a.path,
        contentType: a.contentType,
      })),
    }
    let emlPath: string | null = null
    try {
      if (smtp) {
        await smtp.sendMail(mail)
      } else {
        await mkdir(opts.outboxDir, { recursive: true })
        const info = await stream!.sendMail(mail)
        emlPath = join(opts.outboxDir, `${row.id}.eml`)
        await pipeline(info.message as Readable, createWriteStream(emlPath))
      }
    } catch (cause) {
      if (emlPath) await rm(emlPath, { force: true })
      const error = cause instanceof Error ? cause.message : String(cause)
      const delay = RETRY_DELAYS_SECONDS[Math.min(row.attempts, RETRY_DELAYS_SECONDS.length) - 1]
      const retryAt = row.attempts < maxAttempts && delay ? new Date(Date.now() + delay * 1000) : null
      await markFailed(opts.db, row.id, error, retryAt)
      return { id: row.id, status: retryAt ? 'pending' : 'failed', error, emlPath: null }
    }
    const status = smtp ? 'sent' : 'stored'
    await markDelivered(opts.db, row.id, status, messageId)
    return { id: row.id, status, error: null, emlPath }
  }

  async function enqueue(db: DbClient, message: MailMessage): Promise<string | null> {
    const attachments: OutboxAttachment[] = await Promise.all(
      (message.attachments ?? []).map(async (a) => ({
        ...a,
        size: await stat(a.path).then(
          (s) => s.size,
          () => null,
        ),
      })),
    )
    return insertPending(db, {
      shopId: message.shopId,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      replyTo: message.replyTo ?? null,
      fromName: message.fromName ?? null,
      attachments,
      dedupeKey: message.dedupeKey ?? null,
      holdSeconds: message.holdSeconds ?? 0,
    })
  }

  async function deliver(ids: string[]): Promise<MailResult[]> {
    if (ids.length === 0) return []
    const rows = await claimDue(opts.db, { ids, limit: ids.length })
    return Promise.all(rows.map(sendRow))
  }

  return {
    enqueue,
    deliver,
    release: (id, text, html) => releaseHeld(opts.db, id, text ?? null, html ?? null),
    async drain() {
      let taken = 0
      // Sends a process on this host was making when it died are taken again at once.
      const dead = deadOwners(await sendingOwners(opts.db), { atStart: false })
      for (;;) {
        const rows = await claimDue(opts.db, { limit: DRAIN_BATCH, deadOwners: dead })
        if (rows.length === 0) return taken
        taken += rows.length
        await Promise.all(rows.map(sendRow))
      }
    },
    async send(message) {
      const id = await enqueue(opts.db, message)
      if (id === null) throw new Error(`mail ${message.dedupeKey} was already decided`)
      const [result] = await deliver([id])
      // Taken by a concurrent drain between the insert and here: it is being sent.
      return result ?? { id, status: 'pending', error: null, emlPath: null }
    },
    close() {
      smtp?.close()
      stream?.close()
    },
  }
}

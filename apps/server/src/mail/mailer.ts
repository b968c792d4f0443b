import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import nodemailer from 'nodemailer'
import type { Db } from '../db/pool.ts'

export type MailAttachment = { filename: string; path: string; contentType: string }

export type MailMessage = {
  /** The shop the mail is sent for (null: the app itself). */
  shopId: string | null
  to: string
  subject: string
  text: string
  attachments?: MailAttachment[]
}

export type MailStatus = 'sent' | 'stored' | 'failed'

export type MailResult = {
  /** The `mail_outbox` row. */
  id: string
  status: MailStatus
  error: string | null
  /** Without SMTP: the RFC 822 message written to the outbox folder (`<id>.eml`). */
  emlPath: string | null
}

export type Mailer = {
  /** Sends (or stores) one mail and records it in `mail_outbox`. Never throws for a send failure: it is recorded. */
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
}

/**
 * The app's one way to send mail. With SMTP it hands the message to the server; without it
 * (the embedded default) nodemailer's stream transport renders the full message and it is
 * written to `<outboxDir>/<id>.eml`, where it can be opened with any mail client. Either way
 * the mail is recorded in `mail_outbox` (sent, stored, or failed with its error).
 * Headers and body are UTF-8 (nodemailer encodes a Japanese subject as RFC 2047 words).
 */
export function createMailer(opts: MailerOptions): Mailer {
  const smtp = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null
  const stream = smtp ? null : nodemailer.createTransport({ streamTransport: true, newline: 'windows' })

  return {
    async send(message) {
      // The row id names the .eml file, so it is taken before the message is written.
      const { rows } = await opts.db.query<{ id: string }>(
        `select nextval(pg_get_serial_sequence('mail_outbox', 'id'))::text as id`,
      )
      const id = rows[0]!.id
      const mail = {
        from: opts.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        textEncoding: 'base64' as const,
        attachments: (message.attachments ?? []).map((a) => ({
          filename: a.filename,
          path: a.path,
          contentType: a.contentType,
        })),
      }
      let status: MailStatus
      let error: string | null = null
      let emlPath: string | null = null
      try {
        if (smtp) {
          await smtp.sendMail(mail)
          status = 'sent'
        } else {
          await mkdir(opts.outboxDir, { recursive: true })
          const info = await stream!.sendMail(mail)
          emlPath = join(opts.outboxDir, `${id}.eml`)
          await pipeline(info.message as Readable, createWriteStream(emlPath))
          status = 'stored'
        }
      } catch (cause) {
        status = 'failed'
        error = cause instanceof Error ? cause.message : String(cause)
        if (emlPath) await rm(emlPath, { force: true })
        emlPath = null
      }
      const attachments = await Promise.all(
        (message.attachments ?? []).map(async (a) => ({
          filename: a.filename,
          contentType: a.contentType,
          path: a.path,
          size: await stat(a.path).then(
            (s) => s.size,
            () => null,
          ),
        })),
      )
      await opts.db.query(
        `insert into mail_outbox (id, shop_id, to_address, subject, body, attachments, status, error)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          id,
          message.shopId,
          message.to,
          message.subject,
          message.text,
          JSON.stringify(attachments),
          status,
          error,
        ],
      )
      return { id, status, error, emlPath }
    },
    close() {
      smtp?.close()
      stream?.close()
    },
  }
}

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A mail the catcher received, parsed (mailparser) as a mail client would read it. */
export type CaughtMail = {
  /** Order of arrival, from 1. */
  seq: number
  receivedAt: Date
  /** The SMTP envelope's recipients (RCPT TO). */
  envelopeTo: string[]
  messageId: string | null
  from: string
  to: string
  subject: string
  text: string
  html: string | null
  attachments: Array<{ filename: string | null; contentType: string; size: number }>
  /** The raw RFC 822 message. */
  raw: string
}

export type MailCatcher = {
  /** The SMTP URL the app's mailer sends to (`smtp://127.0.0.1:<port>`). */
  smtpUrl: string
  port: number
  /** Every mail received, oldest first. */
  list(): CaughtMail[]
  /** The first mail (already received or arriving within `timeoutMs`) that matches. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>
  close(): Promise<void>
}

export type MailCatcherOptions = {
  port?: number
  host?: string
  /** Where each received message is kept as `<seq>.eml`, and read back at start. Unset: memory only. */
  dir?: string
  /** Most mails kept in memory (oldest dropped first; default 500). */
  keep?: number
}

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024

/**
 * The local mail server of the embedded default: a real SMTP server (smtp-server, the
 * nodemailer project's) that accepts every message and keeps it, parsed with mailparser.
 * The app sends to it over SMTP exactly as it sends to a production server, so what a test or
 * a merchant reads here went through the same transport. Loopback only, no TLS, no auth.
 */
export async function startMailCatcher(opts: MailCatcherOptions = {}): Promise<MailCatcher> {
  const mails: CaughtMail[] = []
  const waiters = new Set<{ predicate: (m: CaughtMail) => boolean; resolve: (m: CaughtMail) => void }>()
  const keep = opts.keep ?? 500
  let seq = 0

  async function accept(raw: Buffer, envelopeTo: string[], receivedAt: Date, persist: boolean) {
    const parsed = await simpleParser(raw)
    const mail: CaughtMail = {
      seq: ++seq,
      receivedAt,
      envelopeTo,
      messageId: parsed.messageId ?? null,
      from: parsed.from?.text ?? '',
      to: Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? ''),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : null,
      attachments: parsed.attachments.map((a) => ({
        filename: a.filename ?? null,
        contentType: a.contentType,
        size: a.size,
      })),
      raw: raw.toString('utf8'),
    }
    if (persist && opts.dir) {
      const header = JSON.stringify({ envelopeTo, receivedAt: receivedAt.toISOString() })
      await writeFile(
        join(opts.dir, `${String(mail.seq).padStart(6, '0')}.eml`),
        `X-Caught: ${header}\r\n${mail.raw}`,
      )
    }
    mails.push(mail)
    if (mails.length > keep) mails.shift()
    for (const waiter of waiters) {
      if (waiter.predicate(mail)) {
        waiters.delete(waiter)
        waiter.resolve(mail)
      }
    }
  }

  if (opts.dir) {
    await mkdir(opts.dir, { recursive: true })
    for (const name of (await readdir(opts.dir)).filter((n) => n.endsWith('.eml')).sort()) {
      const stored = await readFile(join(opts.dir, name), 'utf8')
      const match = /^X-Caught: (.*)\r\n/.exec(stored)
      const meta = match ? (JSON.parse(match[1]!) as { envelopeTo: string[]; receivedAt: string }) : null
      const raw = Buffer.from(match ? stored.slice(match[0].length) : stored, 'utf8')
      await accept(raw, meta?.envelopeTo ?? [], new Date(meta?.receivedAt ?? 0), false)
    }
  }

  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered (a self-signed certificate would be refused
    // by the client), no authentication asked.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: 'Teiki local mail catcher',
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address)
        accept(Buffer.concat(chunks), envelopeTo, new Date(), true).then(
          () => callback(),
          (error: Error) => callback(error),
        )
      })
    },
  })
  server.on('error', () => {
    // A broken client connection is the client's problem; the server keeps listening.
  })
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    port,
    list: () => [...mails],
    waitFor(predicate, timeoutMs = 10_000) {
      const found = mails.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: CaughtMail) => {
            clearTimeout(timer)
            resolve(mail)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(new Error(`no mail matched within ${timeoutMs} ms (${mails.length} received)`))
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

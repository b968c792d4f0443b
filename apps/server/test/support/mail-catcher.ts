import { type CaughtMail, type MailCatcher, startMailCatcher } from '../../src/mail/catcher.ts'

export type { CaughtMail }

/**
 * The product's SMTP catcher (smtp-server + mailparser) for tests: start one on a free port,
 * point a mailer (or an app process's SMTP_URL) at `smtpUrl`, then read what arrived.
 *
 *   const catcher = await startTestMailCatcher()
 *   const mail = await catcher.waitFor((m) => m.envelopeTo.includes('a@example.jp'))
 *   await catcher.close()
 */
export async function startTestMailCatcher(opts: { dir?: string } = {}): Promise<
  MailCatcher & {
    /** The mails sent to this address (envelope recipient), oldest first. */
    to(address: string): CaughtMail[]
  }
> {
  const catcher = await startMailCatcher({ port: 0, ...opts })
  return {
    ...catcher,
    to: (address) => catcher.list().filter((m) => m.envelopeTo.includes(address)),
  }
}

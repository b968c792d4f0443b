import { join } from 'node:path'
import type { Config } from '../config.ts'
import { startMailCatcher } from './catcher.ts'
import { startMailCatcherPage } from './catcher-page.ts'

/**
 * The embedded default's mail server: with no SMTP_URL and no real platform, `npm start` runs
 * the local SMTP catcher (mails kept in DATA_DIR/mail-catcher) and its page, and the app sends
 * to it over SMTP. Null when SMTP_URL is set, against the real platform, or MAIL_CATCHER_PORT=off.
 */
export async function startLocalMailCatcher(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_CATCHER_PORT' | 'PORT'>,
  dataDir: string,
  realPlatform: boolean,
): Promise<{ smtpUrl: string; pageUrl: string; close(): Promise<void> } | null> {
  if (config.SMTP_URL || realPlatform || config.MAIL_CATCHER_PORT === 'off') return null
  const port = config.MAIL_CATCHER_PORT ?? (config.PORT ? config.PORT + 25 : 0)
  const catcher = await startMailCatcher({ port, dir: join(dataDir, 'mail-catcher') })
  const page = await startMailCatcherPage(catcher, { port: port ? port + 1 : 0 })
  return {
    smtpUrl: catcher.smtpUrl,
    pageUrl: page.url,
    async close() {
      await page.close()
      await catcher.close()
    },
  }
}

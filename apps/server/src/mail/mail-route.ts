import { join } from 'node:path'
import type { Config } from '../config.ts'

/** Where the app's mail goes, decided once at start. */
export type MailRoute =
  | { kind: 'smtp'; url: string }
  | { kind: 'catcher' }
  | { kind: 'files'; dir: string; asked: boolean }

type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FILE_OUTBOX' | 'MAIL_CATCHER_PORT' | 'SHOPIFY_ADMIN_ORIGIN'>

/**
 * SMTP_URL when set. Otherwise the embedded default (the emulator) sends to the local catcher
 * (unless MAIL_CATCHER_PORT=off: files). Against the real platform (API key and secret, no
 * SHOPIFY_ADMIN_ORIGIN pointing at an emulator) customers would read nothing of what is written
 * to files, so start refuses unless MAIL_FILE_OUTBOX=true asks for exactly that.
 */
export function mailRoute(config: MailConfig, realPlatform: boolean, dataDir: string): MailRoute {
  if (config.SMTP_URL) return { kind: 'smtp', url: config.SMTP_URL }
  const files = { kind: 'files' as const, dir: join(dataDir, 'outbox'), asked: config.MAIL_FILE_OUTBOX }
  if (!realPlatform)
    return config.MAIL_CATCHER_PORT === 'off' || config.MAIL_FILE_OUTBOX ? files : { kind: 'catcher' }
  if (config.MAIL_FILE_OUTBOX || config.SHOPIFY_ADMIN_ORIGIN) return files
  throw new Error(
    'SMTP_URL が設定されていません。本番のストアに接続するときは、お客様へのメールを送る SMTP サーバーを ' +
      'SMTP_URL に設定してください（例: smtps://user:pass@smtp.example.jp:465）。メールを送らずにファイル ' +
      `(${files.dir}) に書き出すだけでよい場合は MAIL_FILE_OUTBOX=true を設定してください。\n` +
      '(SMTP_URL is not set: against the real platform, set SMTP_URL, or MAIL_FILE_OUTBOX=true to write mail to files.)',
  )
}

/** The SMTP URL as printed: no user or password. */
export function printableSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return '(SMTP_URL)'
  }
}

/** The start banner's line: where every mail of this process goes. */
export function mailBannerLine(route: MailRoute, catcherPage?: string): string {
  switch (route.kind) {
    case 'smtp':
      return `送信メール: SMTP サーバー ${printableSmtpUrl(route.url)} へ送ります（SMTP_URL）`
    case 'catcher':
      return `送信メール（ローカルのメールサーバー）: ${catcherPage ?? ''}`
    case 'files':
      return `送信メール: ファイル ${route.dir} に書き出します。お客様には届きません${route.asked ? '（MAIL_FILE_OUTBOX=true）' : ''}`
  }
}

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { formatDateTimeJa } from '@teiki/domain'
import type { CaughtMail, MailCatcher } from './catcher.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function mailHtml(mail: CaughtMail): string {
  const attachments = mail.attachments.length
    ? `<p>添付: ${mail.attachments.map((a) => escapeHtml(`${a.filename ?? '(名前なし)'} (${a.size} バイト)`)).join('、')}</p>`
    : ''
  return `<article id="mail-${mail.seq}">
  <h2>${escapeHtml(mail.subject || '(件名なし)')}</h2>
  <dl><dt>受信</dt><dd>${escapeHtml(formatDateTimeJa(mail.receivedAt, 'Asia/Tokyo'))}</dd>
  <dt>差出人</dt><dd>${escapeHtml(mail.from)}</dd>
  <dt>宛先</dt><dd>${escapeHtml(mail.envelopeTo.join(', ') || mail.to)}</dd></dl>
  ${attachments}<pre>${escapeHtml(mail.text)}</pre>
</article>`
}

/**
 * The catcher's own page (like maildev's): the received mails, newest first, as text. Plain
 * HTML, no script; every field escaped. `GET /mails.json` answers the same list for tools.
 * Loopback only: the mails hold customers' addresses.
 */
export async function startMailCatcherPage(
  catcher: MailCatcher,
  opts: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const mails = catcher.list().reverse()
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    if (req.url === '/mails.json') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8')
      res.end(JSON.stringify(mails.map(({ raw: _raw, ...mail }) => mail)))
      return
    }
    if (req.url !== '/' && req.url !== '') {
      res.statusCode = 404
      res.end('not found')
      return
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    res.end(`<!doctype html><html lang="ja"><head><meta charset="utf-8">
<title>受信したメール（ローカル）</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}
pre{white-space:pre-wrap;background:#f6f6f7;padding:.75rem}dt{font-weight:bold;float:left;width:5rem}dd{margin-left:5rem}</style></head>
<body><h1>受信したメール（ローカル）</h1>
<p>Teiki が SMTP で送ったメールを、このローカルのメールサーバー（${escapeHtml(catcher.smtpUrl)}）が受け取って表示しています。全${mails.length}件。</p>
${mails.map(mailHtml).join('\n') || '<p>まだメールはありません。</p>'}
</body></html>`)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

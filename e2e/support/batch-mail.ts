// The mails the app sent to the SMTP catcher, decoded enough to read (one place: the shop-ops
// branch's mail catcher can replace this at merge). Handles what nodemailer writes for a text
// mail: RFC 2047 encoded-word subjects (B and Q) and a quoted-printable or base64 body.

export type CaughtMail = { to: string[]; subject: string; text: string }

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  )
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    return Buffer.from(bytes, 'latin1').toString('utf8')
  }
  return body
}

export function readMails(messages: Array<{ rcpt: string[]; data: string }>): CaughtMail[] {
  return messages.map(({ rcpt, data }) => {
    const split = data.indexOf('\r\n\r\n')
    const head = data.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
    const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? ''
    const encoding = header('Content-Transfer-Encoding').toLowerCase()
    return {
      to: rcpt,
      subject: decodeWords(header('Subject')),
      text: decodeBody(data.slice(split + 4), encoding),
    }
  })
}

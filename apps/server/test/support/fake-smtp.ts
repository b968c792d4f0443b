import { createServer, type Server } from 'node:net'

/** The smallest SMTP server nodemailer talks to: accepts everything and keeps the messages. */
export async function fakeSmtpServer(): Promise<{
  port: number
  messages: Array<{ rcpt: string[]; data: string }>
  close(): Promise<void>
}> {
  const messages: Array<{ rcpt: string[]; data: string }> = []
  const server: Server = createServer((socket) => {
    let buffer = ''
    let inData = false
    let rcpt: string[] = []
    socket.write('220 fake ESMTP\r\n')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          messages.push({ rcpt, data: buffer.slice(0, end) })
          buffer = buffer.slice(end + 5)
          inData = false
          rcpt = []
          socket.write('250 queued\r\n')
          continue
        }
        const end = buffer.indexOf('\r\n')
        if (end < 0) return
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 8BITMIME\r\n')
        else if (verb === 'RCPT') {
          rcpt.push(/<([^>]*)>/.exec(line)?.[1] ?? '')
          socket.write('250 ok\r\n')
        } else if (verb === 'DATA') {
          inData = true
          socket.write('354 go on\r\n')
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n')
        } else socket.write('250 ok\r\n')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

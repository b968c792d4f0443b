import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

/**
 * A local HTTP endpoint standing in for the error-reporting service: it accepts the SDKs'
 * envelopes (`POST /api/<project>/envelope/`, also the browser's) and keeps their text.
 */
export async function startReportEndpoint(): Promise<{
  dsn: string
  envelopes: string[]
  /** Every envelope that mentions `text`. */
  mentioning(text: string): string[]
  /** The messages of the errors sent (each event's exception values). */
  errorMessages(): string[]
  close(): Promise<void>
}> {
  const envelopes: string[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let body = Buffer.concat(chunks)
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
      if (req.method === 'POST' && /\/api\/\d+\/envelope\/?/.test(req.url ?? ''))
        envelopes.push(body.toString('utf8'))
      // The browser SDK sends cross-origin: answer its preflight and reads.
      res.setHeader('access-control-allow-origin', '*')
      res.setHeader('access-control-allow-headers', '*')
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    dsn: `http://0123456789abcdef0123456789abcdef@127.0.0.1:${port}/1`,
    envelopes,
    mentioning: (text) => envelopes.filter((e) => e.includes(text)),
    errorMessages: () =>
      envelopes.flatMap((envelope) =>
        envelope
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .flatMap((line) => {
            const item = JSON.parse(line) as { exception?: { values?: Array<{ value?: string }> } }
            return (item.exception?.values ?? []).map((v) => v.value ?? '')
          }),
      ),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

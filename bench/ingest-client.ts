import { randomUUID } from 'node:crypto'
import net from 'node:net'

// The load generator of the pixel's ingest (issue 14): `connections` browsers, each on its own
// keep-alive TCP connection with one request in flight (no pipelining, as a browser's
// sendBeacon), posting one real pixel body (extensions/teiki-pixel: one event per request, as
// text/plain, with a browser's headers) back to back. It shares the machine's two cores with
// the server, so it is written against the socket: the request is one string write and the
// answer is read from its status line and Content-Length, instead of node:http's client, which
// cost the server about a third of a core. Every event id answered 200 is remembered.

export type ClientRun = {
  acked: string[]
  errors: number
  latencies: number[]
  seconds: number
  /** From the first failed request to the last one (s): the server's downtime in a SIGKILL run. */
  failingSeconds: number
}

const BROWSER_HEADERS =
  'Accept: */*\r\n' +
  'Accept-Language: ja,en-US;q=0.9,en;q=0.8\r\n' +
  'Accept-Encoding: gzip, deflate, br, zstd\r\n' +
  'Origin: https://bench-analytics.myshopify.com\r\n' +
  'Sec-Fetch-Mode: no-cors\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: empty\r\n' +
  'User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 ' +
  '(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1\r\n'

/** One page view as the pixel sends it. */
export function pageViewBody(id: string, clientId: string, campaign: string): string {
  return JSON.stringify({
    events: [
      {
        id,
        name: 'page_viewed',
        timestamp: new Date().toISOString(),
        clientId,
        url: `https://bench-analytics.myshopify.com/products/tea?utm_source=instagram&utm_medium=social&utm_campaign=${campaign}`,
      },
    ],
  })
}

export async function runIngestClient(opts: {
  port: () => number
  shop: string
  key: string
  connections: number
  seconds: number
  onTick?: (elapsedMs: number) => void
}): Promise<ClientRun> {
  const acked: string[] = []
  const latencies: number[] = []
  let errors = 0
  let firstError = 0
  let lastError = 0
  const failed = () => {
    errors++
    lastError = Date.now()
    firstError ||= lastError
  }
  const started = Date.now()
  const deadline = started + opts.seconds * 1000
  const ticker = opts.onTick ? setInterval(() => opts.onTick!(Date.now() - started), 100) : null
  const path = `/pixel/events?shop=${encodeURIComponent(opts.shop)}&key=${encodeURIComponent(opts.key)}`
  await Promise.all(
    Array.from({ length: opts.connections }, async (_, worker) => {
      const clientId = randomUUID()
      let conn: Connection | null = null
      while (Date.now() < deadline) {
        conn ??= await connect(opts.port()).catch(() => null)
        if (!conn) {
          failed()
          await new Promise((r) => setTimeout(r, 20))
          continue
        }
        const id = `sh-${randomUUID()}`
        const body = pageViewBody(id, clientId, `c${worker % 4}`)
        const t0 = process.hrtime.bigint()
        const status = await conn.send(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${opts.port()}\r\n${BROWSER_HEADERS}` +
            `Content-Type: text/plain;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        )
        if (status === 200) {
          acked.push(id)
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
        } else {
          failed()
        }
        if (status === 0 || conn.closed) {
          conn.destroy()
          conn = null
          if (status === 0) await new Promise((r) => setTimeout(r, 20))
        }
      }
      conn?.destroy()
    }),
  )
  if (ticker) clearInterval(ticker)
  const seconds = (Date.now() - started) / 1000
  return { acked, errors, latencies, seconds, failingSeconds: (lastError - firstError) / 1000 }
}

type Connection = { send(request: string): Promise<number>; destroy(): void; closed: boolean }

/** A keep-alive connection answering one request at a time: the status, or 0 when the connection failed. */
function connect(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', noDelay: true })
    let pending: ((status: number) => void) | null = null
    let buffer = ''
    const conn: Connection = {
      closed: false,
      send(request) {
        return new Promise((done) => {
          pending = done
          socket.write(request)
        })
      },
      destroy: () => socket.destroy(),
    }
    const settle = (status: number) => {
      const done = pending
      pending = null
      buffer = ''
      done?.(status)
    }
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = buffer.slice(0, end)
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)
      // The app answers with a length; anything else is counted as a failure.
      if (!length) return settle(-1)
      if (buffer.length < end + 4 + Number(length[1])) return
      if (/\r\nconnection: *close/i.test(head)) conn.closed = true
      settle(Number(head.slice(9, 12)))
    })
    socket.once('connect', () => resolve(conn))
    socket.on('error', (error) => {
      conn.closed = true
      reject(error)
      settle(0)
    })
    socket.on('close', () => {
      conn.closed = true
      settle(0)
    })
  })
}

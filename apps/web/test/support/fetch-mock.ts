import { afterEach, beforeEach, type Mock, vi } from 'vitest'

// The real HTTP client (src/app/api.ts) against a mocked global fetch: what each test sent, and
// the answers it queues. Call `mockFetch()` once at the top of a test file.

export type Call = { url: string; method: string; body: unknown; headers: Record<string, string> }

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** The server's error answer: `{ error: { code, message } }`. */
export const failure = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } })

export function mockFetch() {
  const http = {
    fetch: vi.fn<typeof fetch>(),
    calls: (): Call[] =>
      http.fetch.mock.calls.map(([url, init]) => ({
        url: String(url),
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
        headers: (init?.headers ?? {}) as Record<string, string>,
      })),
    answer: (...responses: Response[]) => {
      for (const response of responses) http.fetch.mockResolvedValueOnce(response)
    },
  }
  beforeEach(() => {
    http.fetch = vi.fn<typeof fetch>()
    vi.stubGlobal('fetch', http.fetch)
  })
  afterEach(() => vi.unstubAllGlobals())
  return http as {
    fetch: Mock<typeof fetch>
    calls: () => Call[]
    answer: (...responses: Response[]) => void
  }
}

import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { routeRequest } from '../src/app/api.ts'

// Issue 24 item 3: every answer the web reads is typed by the contract's route table through
// `api(route, input)`; none is typed by a cast or a type argument at the call. This keeps it so.

const SRC = join(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Each forbidden spelling, and why. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bapi(Get|Post|Put|Delete|Send|Download)\b/, 'the old string-path helpers'],
  [
    /(?<!function )\b(api|download|useApi|useLoader|get|fetchJson)<[^=>]/,
    'a type argument naming the answer',
  ],
  [/\.json\(\)\)?\s+as\s/, 'a cast of a parsed body'],
  [/JSON\.parse\([^)]*\)\s+as\s/, 'a cast of a parsed body'],
  [/\b(api|download)\((?:[^()]|\([^()]*\))*\)\)?\s+as\s/, 'a cast of an answer'],
  [/\bfunction useLoad\b/, 'a hand-written loading hook (useApi / useLoader instead)'],
]

describe('the web reads every answer through the typed client', () => {
  it('has no string-path helper, no type argument or cast on an answer, no hand-written useLoad', () => {
    const found: string[] = []
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8')
      for (const [pattern, why] of FORBIDDEN) {
        const match = pattern.exec(text)
        if (match) found.push(`${relative(SRC, file)}: ${why} (${match[0]})`)
      }
    }
    expect(found).toEqual([])
  })

  it('calls fetch in one place only (the client)', () => {
    const callers = sources(SRC)
      .filter((file) => /\bfetch\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
    expect(callers).toEqual(['app/api.ts'])
  })
})

describe('routeRequest', () => {
  it('splits the key into method and path and fills the path parameters, encoded', () => {
    expect(
      routeRequest('DELETE /subscriptions/:id/discount-code/:code', {
        params: { id: '12', code: 'WELCOME 10/%' },
        query: { revision: '3' },
      }),
    ).toEqual({
      method: 'DELETE',
      path: '/subscriptions/12/discount-code/WELCOME%2010%2F%25',
      params: { revision: '3' },
      body: undefined,
    })
  })

  it('sends the body as given and no query when there is none', () => {
    expect(routeRequest('PUT /settings', { body: { settings: {} } })).toMatchObject({
      method: 'PUT',
      path: '/settings',
      params: {},
      body: { settings: {} },
    })
  })

  it('refuses a key whose parameter is missing rather than call a wrong path', () => {
    expect(() => routeRequest('GET /boxes/:id', {})).toThrow('path parameter id is missing')
  })
})

import { appAdminRoutes, type RouteSpec, routeTarget } from '@teiki/contract'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppInstance, RouteEntry } from '../src/http/app.ts'
import { testApp, testPool } from './support/fixtures.ts'

// Issue 24 item 3: the contract's route table is what the web app's client is typed by, so each
// entry must be a route the server registers, with that method and path, validating and
// answering with the very schemas the table names (the same objects, not look-alikes).

let pool: pg.Pool
let app: AppInstance
beforeAll(async () => {
  pool = testPool()
  app = await testApp(pool)
})
afterAll(async () => {
  await app?.close()
  await pool?.end()
})

const entries = Object.entries(appAdminRoutes) as Array<[string, RouteSpec]>

function registered(key: string): RouteEntry | undefined {
  const { method, url } = routeTarget(key)
  return app.routeList.find((route) => route.method === method && route.url === url)
}

describe('the contract route table', () => {
  it('names every /app-admin route once, and the server registers each with its method and path', () => {
    expect(entries.length).toBeGreaterThan(130)
    const missing = entries.map(([key]) => key).filter((key) => !registered(key))
    expect(missing).toEqual([])
  })

  it('lists every /app-admin route the server registers (but the OpenAPI document)', () => {
    const keys = new Set(entries.map(([key]) => key))
    const unlisted = app.routeList
      .filter((r) => r.url.startsWith('/app-admin/') && r.url !== '/app-admin/openapi.json')
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.slice('/app-admin'.length)}`)
      .filter((key) => !keys.has(key))
    expect(unlisted).toEqual([])
  })

  it('validates and answers with the same schema objects as the table', () => {
    const differing: string[] = []
    for (const [key, spec] of entries) {
      const schema = registered(key)?.schema ?? {}
      const response = (schema.response ?? {}) as Record<string, unknown>
      const pairs: Array<[string, unknown, unknown]> = [
        ['params', spec.params, schema.params],
        ['query', spec.query, schema.querystring],
        ['body', spec.body, schema.body],
        ['answer', spec.answer, response[spec.status ?? 200]],
      ]
      if (spec.alternative)
        pairs.push(['alternative', spec.alternative.answer, response[spec.alternative.status]])
      for (const [part, expected, actual] of pairs) if (expected !== actual) differing.push(`${key}: ${part}`)
    }
    expect(differing).toEqual([])
  })
})

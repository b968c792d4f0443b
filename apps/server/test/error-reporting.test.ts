import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/http/app.ts'
import {
  closeErrorReporting,
  flushErrorReports,
  initServerErrorReporting,
  reportServerError,
} from '../src/http/error-reporting.ts'
import { TEST_API_KEY, TEST_API_SECRET, testPool } from './support/fixtures.ts'
import { startReportEndpoint } from './support/report-endpoint.ts'

let endpoint: Awaited<ReturnType<typeof startReportEndpoint>>
let pool: pg.Pool

beforeAll(async () => {
  endpoint = await startReportEndpoint()
  pool = testPool()
})
afterAll(async () => {
  await closeErrorReporting()
  await endpoint.close()
  await pool.end()
})

describe('server error reporting (spec §8, §9)', () => {
  it('without a DSN nothing is started and nothing is sent', async () => {
    expect(initServerErrorReporting({ dsn: undefined })).toBe(false)
    reportServerError(new Error('teiki-no-dsn'))
    await flushErrorReports()
    await new Promise((r) => setTimeout(r, 200))
    expect(endpoint.envelopes).toEqual([])
  })

  it('with a DSN: an unfiltered error is sent; the ignored and dropped ones are not', async () => {
    expect(initServerErrorReporting({ dsn: endpoint.dsn })).toBe(true)
    reportServerError(new Error('teiki-unfiltered boom'))
    reportServerError(new Error('NetworkError when attempting to fetch resource'))
    reportServerError(new Error('Non-Error exception captured with keys: code, message'))
    reportServerError(new ReferenceError('window is not defined'))
    await flushErrorReports(5000)
    expect(endpoint.errorMessages()).toEqual(['teiki-unfiltered boom'])
  })

  it('a 500 of the app is reported with its route, and the URL’s secret is not sent', async () => {
    const app = await buildApp({
      db: pool,
      platform: { adminOrigin: (s) => `https://${s}`, apiKey: TEST_API_KEY },
      apiSecret: TEST_API_SECRET,
    })
    app.get('/test-only/explode', { config: { auth: 'public' } }, () => {
      throw new Error('teiki-route-exploded')
    })
    await app.ready()
    const res = await app.inject({ method: 'GET', url: '/test-only/explode?secret=very-secret-value' })
    expect(res.statusCode).toBe(500)
    await flushErrorReports(5000)
    const [sent] = endpoint.mentioning('teiki-route-exploded')
    expect(sent).toContain('/test-only/explode')
    expect(sent).not.toContain('very-secret-value')
    await app.close()
  })

  it('the tracing sample rate is 1', async () => {
    const { TRACES_SAMPLE_RATE } = await import('@teiki/domain')
    expect(TRACES_SAMPLE_RATE).toBe(1)
  })
})

import { afterAll, afterEach } from 'vitest'

/**
 * An unhandled rejection or exception fails the test during which it happened (or the file's
 * teardown, when it happened after the last test), instead of surfacing only as a red run
 * with every test green. Registered for every project in vitest.config.ts.
 */
const caught: unknown[] = []
const state = globalThis as { __teikiUnhandled?: boolean }
if (!state.__teikiUnhandled) {
  state.__teikiUnhandled = true
  process.on('unhandledRejection', (reason) => caught.push(reason))
  process.on('uncaughtException', (error) => caught.push(error))
}

function rethrow(when: string): void {
  if (caught.length === 0) return
  const errors = caught.splice(0)
  const first = errors[0]
  const detail = first instanceof Error ? (first.stack ?? first.message) : String(first)
  throw new Error(`${errors.length} unhandled rejection(s)/exception(s) ${when}: ${detail}`)
}

afterEach(() => rethrow('during this test'))
afterAll(() => rethrow("during this file's teardown or after its last test"))

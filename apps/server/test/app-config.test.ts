import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SUBSCRIBED_TOPICS, TOPIC_HANDLERS } from '../src/features/webhooks/topics.ts'
import { OPTIONAL_SCOPES, REQUESTED_SCOPES, REQUIRED_SCOPES } from '../src/platform/scopes.ts'

/**
 * shopify.app.toml is what the platform knows of the app (scopes, webhook subscriptions). It
 * is deployed by Shopify CLI, not read by the server, so these tests keep it in step with the
 * code: a topic handled but not subscribed would never arrive, a scope required but not asked
 * for would send every shop to re-authorisation.
 */
const toml = readFileSync(new URL('../../../shopify.app.toml', import.meta.url), 'utf8')

/** The strings of the array assigned to `key` (the one-level TOML arrays this file uses). */
function arrayOf(key: string, from = 0): string[] {
  const match = new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, 'm').exec(toml.slice(from))
  if (!match) throw new Error(`${key} not found`)
  return [...match[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
}

describe('shopify.app.toml', () => {
  it('subscribes to exactly the topics the webhook handler applies', () => {
    expect(arrayOf('topics').sort()).toEqual([...SUBSCRIBED_TOPICS].sort())
  })

  it('declares the three compliance topics, which the handler applies too', () => {
    const compliance = arrayOf('compliance_topics')
    expect(compliance.sort()).toEqual(['customers/data_request', 'customers/redact', 'shop/redact'])
    for (const topic of compliance) expect(TOPIC_HANDLERS[topic]).toBeDefined()
  })

  it('sends every subscription to /webhooks on the 2025-04 API', () => {
    expect([...toml.matchAll(/^\s*uri\s*=\s*"([^"]+)"/gm)].map((m) => m[1])).toEqual([
      '/webhooks',
      '/webhooks',
    ])
    expect(toml).toMatch(/^api_version = "2025-04"$/m)
  })

  it('asks for exactly the scopes the app requires and read_all_orders, and runs embedded', () => {
    const scopes = /^scopes = "([^"]*)"$/m.exec(toml)![1]!.split(',')
    expect(scopes.sort()).toEqual([...REQUESTED_SCOPES].sort())
    // Orders older than 60 days: asked for, and not required (the app works on 60 days).
    expect(OPTIONAL_SCOPES).toEqual(['read_all_orders'])
    expect(REQUIRED_SCOPES).not.toContain('read_all_orders')
    expect(toml).toMatch(/^embedded = true$/m)
  })
})

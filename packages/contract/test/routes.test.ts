import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { appAdminRoutes, type RouteSpec, routeTarget } from '../src/index.ts'

const entries = Object.entries(appAdminRoutes) as Array<[string, RouteSpec]>

describe('the route table', () => {
  it('keys are a method and a path under /app-admin', () => {
    for (const [key] of entries) expect(key).toMatch(/^(GET|POST|PUT|DELETE) \/[\w\-/:]*$/)
    expect(routeTarget('GET /subscriptions/:contractId')).toEqual({
      method: 'GET',
      url: '/app-admin/subscriptions/:contractId',
    })
  })

  // The web fills path parameters from the key's `:names`; the server parses them with `params`.
  // Both must name the same parameters, or a filled path would not validate.
  it('names the same path parameters in the path and in the params schema', () => {
    for (const [key, spec] of entries) {
      const inPath = [...key.matchAll(/:(\w+)/g)].map((m) => m[1]).sort()
      const inSchema = spec.params instanceof z.ZodObject ? Object.keys(spec.params.shape).sort() : []
      expect({ key, params: inSchema }).toEqual({ key, params: inPath })
    }
  })

  it('reads no body on GET and DELETE (the server takes their input from the path and query)', () => {
    const withBody = entries.filter(([key, spec]) => /^(GET|DELETE) /.test(key) && spec.body)
    expect(withBody).toEqual([])
  })
})

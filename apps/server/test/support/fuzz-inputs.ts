import fc from 'fast-check'

/**
 * Hostile HTTP requests for the fuzzer (test/fuzz.test.ts): every route's parameters, query
 * fields and JSON body fields (as the OpenAPI document names them) filled with values an
 * attacker or a broken client sends, mixed with plausible ones so requests also get past the
 * schemas and reach services, the mirror and the platform.
 */

/** Real values of the fuzzed shop, so some requests are valid enough to go deep. */
export type FuzzContext = {
  auth: string
  contractId: string
  customerId: string
  lineId: string
  variantId: string
  revision: string
  reasonId: string
}

type JsonSchema = {
  type?: string | string[]
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  pattern?: string
}

export type RouteShape = {
  method: string
  url: string
  query: string[]
  body: JsonSchema | null
}

export type FuzzRequest = {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
}

const TEN_K = 'x'.repeat(10_001)

/** Strings every text and id field gets: NUL and other controls, overlong, out of range, odd ids. */
export const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '%00',
  '\u0001',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u009f',
  'a\rb',
  'a\nb',
  '\t',
  '\ud800',
  'a\udfffb',
  TEN_K,
  'あ'.repeat(12_000),
  '0',
  '-1',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '1e400',
  '99999999999999999999',
  '12345678901234567890123',
  '007',
  'NaN',
  'Infinity',
  'abc',
  '',
  ' ',
  '１２３',
  'gid://shopify/ProductVariant/1',
  'gid://shopify/ProductVariant/9223372036854775808',
  'gid://shopify/ProductVariant/44000000000001',
  'gid://shopify/ProductVariant/',
  'gid://shopify/SubscriptionContract/1',
  "'; drop table shops; --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '🍵',
  '\u202e',
  '2026-02-30',
  '9999-99-99',
  '0000-00-00',
  '__proto__',
  'constructor',
  '1980.5',
  '-1980',
]

const HOSTILE_NUMBERS = [0, -1, 1.5, 2 ** 63, 2 ** 64, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1e-7]

const WRONG_SHAPES: unknown[] = [
  null,
  true,
  [],
  ['1'],
  {},
  { a: 1 },
  [[[[{}]]]],
  JSON.parse('{"__proto__":{"polluted":1}}'),
  { constructor: { prototype: { polluted: 1 } } },
]

/** Any UTF-16 code unit, lone surrogates and controls included. */
const anyUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 12,
})

const hostile = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: anyUnits },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(...WRONG_SHAPES) },
)

function plausibleByName(name: string, ctx: FuzzContext): fc.Arbitrary<unknown> | null {
  switch (name) {
    case 'id':
    case 'contractId':
      return fc.constantFrom(ctx.contractId, ctx.contractId, '1', '9223372036854775807')
    case 'customerId':
      return fc.constant(ctx.customerId)
    case 'lineId':
      return fc.constant(ctx.lineId)
    case 'variantId':
      return fc.constantFrom(ctx.variantId, `gid://shopify/ProductVariant/${ctx.variantId}`)
    case 'revision':
      return fc.constant(ctx.revision)
    case 'reasonId':
      return fc.constant(ctx.reasonId)
    case 'price':
      return fc.constantFrom('1980', '0', '1980.5', '999999999999.99')
    case 'email':
      return fc.constantFrom('merchant@example.jp', 'not-an-email')
    case 'code':
    case 'discountCode':
      return fc.constantFrom('WELCOME10', 'NOPE')
    default:
      return null
  }
}

function plausible(schema: JsonSchema, name: string, ctx: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  const byName = plausibleByName(name, ctx)
  if (byName) return byName
  if (schema.enum?.length) return fc.constantFrom(...schema.enum)
  if (schema.anyOf?.length) return plausible(schema.anyOf[0]!, name, ctx, depth)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  if (type === 'boolean') return fc.boolean()
  if (type === 'integer' || type === 'number') return fc.integer({ min: -2, max: 60 })
  if (type === 'object' && schema.properties && depth < 3) return objectOf(schema, ctx, depth + 1)
  if (type === 'array') return fc.array(plausible(schema.items ?? {}, name, ctx, depth + 1), { maxLength: 3 })
  if (schema.pattern?.includes('\\d{4}-')) return fc.constantFrom('2026-12-01', '2027-01-31')
  return fc.constantFrom('山田', 'ACTIVE', 'ACTIVE,PAUSED', '渋谷区', '1980', 'JP-13', '150-0001')
}

/** A field's value: plausible or hostile, hostile more often. */
function field(schema: JsonSchema, name: string, ctx: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schema, name, ctx, depth) },
    { weight: 4, arbitrary: hostile },
  )
}

function objectOf(
  schema: JsonSchema,
  ctx: FuzzContext,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [key, child] of Object.entries(schema.properties ?? {}))
    model[key] = field(child, key, ctx, depth)
  // Keys may be left out; unknown keys and prototype keys are added now and then.
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.option(fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField'), { freq: 4 }),
      fc.constantFrom(...WRONG_SHAPES, 'x'),
    )
    .map(([value, extra, extraValue]) => {
      if (extra) Object.defineProperty(value, extra, { value: extraValue, enumerable: true })
      return value
    })
}

/** Percent-encoding that also carries lone surrogates (as the WTF-8 bytes a broken client sends). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return [...text]
      .map((ch) => {
        try {
          return encodeURIComponent(ch)
        } catch {
          return `%ED%${(0xa0 + ((ch.charCodeAt(0) >> 6) & 0x1f)).toString(16)}%${(0x80 + (ch.charCodeAt(0) & 0x3f)).toString(16)}`
        }
      })
      .join('')
  }
}

/** A value as query-string text: usually encoded, sometimes raw (malformed escapes included). */
function queryPart(key: string, value: unknown, raw: boolean): string {
  if (Array.isArray(value)) return value.map((v) => queryPart(key, v, raw)).join('&') || `${key}=`
  if (value !== null && typeof value === 'object') return `${key}[a]=1`
  const text = String(value)
  return `${encode(key)}=${raw ? text : encode(text)}`
}

const RAW_QUERY_TAILS = ['%00', '%zz', '%E3%81', '%C0%80', '%ED%A0%80', '%', '%2', '\u0000', '%1B']

const BODIES_RAW = [
  '{"note": "a"',
  '{',
  'nul',
  '\u0000',
  '{"a":1}}',
  '[1,2',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
  '{"contractId":"1","contractId":"2"}',
  '"just a string"',
  '12',
  'null',
  '[]',
  '{"note":"\\u0000"}',
  '{"note":"\\ud800"}',
]

const WRONG_CONTENT = [
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'contractId=1&note=%00'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
  ['application/json; charset=shift_jis', '{"note":"a"}'],
  ['application/xml', '<a/>'],
  ['application/json', ''],
] as const

type BodyPlan = { headers: Record<string, string>; payload?: string }

function bodyPlan(route: RouteShape, ctx: FuzzContext): fc.Arbitrary<BodyPlan> {
  const json = (value: unknown): BodyPlan => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(value),
  })
  const schemaBody = route.body
    ? objectOf(route.body, ctx, 0).map(json)
    : fc.constant<BodyPlan>({ headers: {} })
  return fc.oneof(
    { weight: 10, arbitrary: schemaBody },
    { weight: 2, arbitrary: hostile.map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...BODIES_RAW).map((payload) => ({ ...json(null), payload })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...WRONG_CONTENT)
        .map(([type, payload]) => ({ headers: { 'content-type': type }, payload })),
    },
  )
}

function authPart(ctx: FuzzContext): fc.Arbitrary<{ query: string; headers: Record<string, string> }> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant({ query: ctx.auth, headers: {} }) },
    { weight: 2, arbitrary: fc.constant({ query: '', headers: {} }) },
    { weight: 1, arbitrary: fc.constant({ query: `${ctx.auth}x`, headers: {} }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Bearer garbage', 'Bearer a.b.c', 'Basic Og==').map((authorization) => ({
        query: '',
        headers: { authorization },
      })),
    },
    {
      weight: 1,
      arbitrary: hostile.map((shop) => ({
        query: `${queryPart('shop', shop, false)}&secret=s`,
        headers: {},
      })),
    },
  )
}

/** Requests for one route: path parameters, query fields and body from the route's shape. */
export function requestsFor(route: RouteShape, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)
  const params = fc.tuple(...names.map((name) => field({ type: 'string' }, name, ctx, 0)))
  const queryFields = fc.record(
    Object.fromEntries(route.query.map((key) => [key, field({ type: 'string' }, key, ctx, 0)])),
    { requiredKeys: [] },
  )
  const body = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(route.method)
    ? bodyPlan(route, ctx)
    : fc.constant<BodyPlan>({ headers: {} })
  return fc
    .record({
      params,
      queryFields,
      rawQuery: fc.boolean(),
      tail: fc.option(fc.constantFrom(...RAW_QUERY_TAILS), { freq: 8 }),
      auth: authPart(ctx),
      body,
    })
    .map(({ params, queryFields, rawQuery, tail, auth, body }) => {
      let i = 0
      const path = route.url.replace(/:([A-Za-z]+)/g, () => encode(String(params[i++])))
      const query = [
        auth.query,
        ...Object.entries(queryFields).map(([k, v]) => queryPart(k, v, rawQuery)),
        tail ? `x=${tail}` : '',
      ].filter(Boolean)
      return {
        method: route.method,
        url: query.length ? `${path}?${query.join('&')}` : path,
        headers: { ...auth.headers, ...body.headers },
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      }
    })
}

import { createHash } from 'node:crypto'
import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { AppMetafieldRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'

/**
 * App-data metafields (shopify.dev, "App-data metafields"): metafields owned by the app's
 * installation, set with `metafieldsSet` (ownerId = `currentAppInstallation.id`) and read by
 * the app's theme blocks as `app.metafields.<namespace>.<key>`. The emulator keeps only these;
 * other owners are refused. Teiki's box block reads `teiki.boxes` (ADR 0014).
 */

const MAX_INPUTS = 25
/** The types the emulator checks; others are stored as given. */
const TYPES = new Set([
  'json',
  'single_line_text_field',
  'multi_line_text_field',
  'number_integer',
  'boolean',
])

type Input = {
  ownerId: string
  namespace?: string | null
  key: string
  value: string
  type?: string | null
  compareDigest?: string | null
}
type SetError = { code: string; elementIndex: number | null; field: string[]; message: string }

const digest = (m: AppMetafieldRecord) => createHash('sha256').update(`${m.type}:${m.value}`).digest('hex')

/** Why one input cannot be set, or null. */
function problem(ctx: Context, m: Input, i: number, known: AppMetafieldRecord | undefined): SetError | null {
  const err = (code: string, field: string, message: string) => ({
    code,
    elementIndex: i,
    field: ['metafields', String(i), field],
    message,
  })
  if (idOf(m.ownerId, 'AppInstallation') !== ctx.shop.installation.id)
    return err(
      'INVALID',
      'ownerId',
      'The emulator keeps app-data metafields only: ownerId must be currentAppInstallation.id',
    )
  if (!/^[a-zA-Z0-9_-]{2,64}$/.test(m.key))
    return err('INVALID', 'key', 'Key must be 2-64 characters: letters, digits, - and _')
  const type = m.type ?? known?.type
  if (!type) return err('BLANK', 'type', "Type can't be blank")
  if (!TYPES.has(type)) return err('INVALID_TYPE', 'type', `Type ${type} is not supported by the emulator`)
  if (known && known.type !== type) return err('INVALID_TYPE', 'type', 'Type cannot be changed')
  if (m.compareDigest != null && (!known || digest(known) !== m.compareDigest))
    return err('STALE_OBJECT', 'compareDigest', 'The resource has been updated since it was loaded')
  if (m.value.length > 65_536) return err('TOO_LONG', 'value', 'Value is too long')
  const badValue = () => err('INVALID_VALUE', 'value', `Value is invalid for type ${type}`)
  if (type === 'json') {
    try {
      JSON.parse(m.value)
    } catch {
      return badValue()
    }
  }
  if (type === 'number_integer' && !/^-?\d{1,18}$/.test(m.value)) return badValue()
  if (type === 'boolean' && m.value !== 'true' && m.value !== 'false') return badValue()
  return null
}

const view = (m: AppMetafieldRecord) => ({
  ...m,
  compareDigest: digest(m),
  jsonValue:
    m.type === 'json'
      ? JSON.parse(m.value)
      : m.type === 'number_integer'
        ? Number(m.value)
        : m.type === 'boolean'
          ? m.value === 'true'
          : m.value,
})

const namespaceOf = (m: Input) => m.namespace ?? '$app'

export const appMetafieldMutations: ResolverMap = {
  AppInstallation: {
    metafield: (_i, args: { namespace?: string | null; key: string }, ctx: Context) => {
      const found = (extraOf(ctx.shop, ctx.now()).appMetafields ?? []).find(
        (m) => m.namespace === (args.namespace ?? '$app') && m.key === args.key,
      )
      return found ? view(found) : null
    },
  },
  Mutation: {
    metafieldsSet: (_s, args: { metafields: Input[] }, ctx: Context) => {
      const extra = extraOf(ctx.shop, ctx.now())
      const stored = extra.appMetafields ?? []
      const find = (m: Input) => stored.find((s) => s.namespace === namespaceOf(m) && s.key === m.key)
      if (args.metafields.length > MAX_INPUTS)
        return {
          metafields: null,
          userErrors: [
            {
              code: 'LESS_THAN_OR_EQUAL_TO',
              elementIndex: null,
              field: ['metafields'],
              message: `At most ${MAX_INPUTS} metafields per call`,
            },
          ],
        }
      // All or nothing, as the platform does: one bad input sets none.
      const errors = args.metafields.map((m, i) => problem(ctx, m, i, find(m))).filter((e) => e !== null)
      if (errors.length > 0) return { metafields: null, userErrors: errors }
      const at = Math.floor(ctx.now() / 1000) * 1000
      const written = args.metafields.map((m) => {
        const known = find(m)
        if (known) {
          known.value = m.value
          known.updatedAt = at
          return known
        }
        const created: AppMetafieldRecord = {
          id: newId(ctx.shop, 'Metafield'),
          namespace: namespaceOf(m),
          key: m.key,
          type: m.type!,
          value: m.value,
          createdAt: at,
          updatedAt: at,
        }
        stored.push(created)
        return created
      })
      extra.appMetafields = stored
      ctx.store.changed()
      return { metafields: written.map(view), userErrors: [] }
    },
  },
}

import { createHash } from 'node:crypto'
import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { AppMetafieldRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { requireValidationWrite } from './validations.ts'

/**
 * App-data metafields (shopify.dev, "App-data metafields"): metafields owned by the app's
 * installation, set with `metafieldsSet` (ownerId = `currentAppInstallation.id`) and read by
 * the app's theme blocks as `app.metafields.<namespace>.<key>`; and the metafields of the app's
 * validations (ownerId = a `Validation` id), which their function's input reads. The emulator
 * keeps only these; other owners are refused. Teiki's box block reads `teiki.boxes` (ADR 0014),
 * its box rules function the validation's `teiki.box_rules` (ADR 0038).
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

/** The list `ownerId` keeps its metafields in: the app's installation, or a validation of the app. */
function ownerList(ctx: Context, ownerId: string): AppMetafieldRecord[] | null {
  const extra = extraOf(ctx.shop, ctx.now())
  if (idOf(ownerId, 'AppInstallation') === ctx.shop.installation.id) {
    extra.appMetafields ??= []
    return extra.appMetafields
  }
  const validation = (extra.validations ?? []).find((v) => idOf(ownerId, 'Validation') === v.id)
  return validation?.metafields ?? null
}

/**
 * Why one input's key, type or value cannot be set, or null (`field` prefixes the path, the
 * input's place in its list: `['metafields', '0']`).
 */
export function metafieldProblem(
  m: Omit<Input, 'ownerId'>,
  field: string[],
  known: AppMetafieldRecord | undefined,
): Omit<SetError, 'elementIndex'> | null {
  const err = (code: string, name: string, message: string) => ({ code, field: [...field, name], message })
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

/** Why one input cannot be set, or null. */
function problem(ctx: Context, m: Input, i: number, known: AppMetafieldRecord | undefined): SetError | null {
  const field = ['metafields', String(i)]
  if (!ownerList(ctx, m.ownerId))
    return {
      code: 'INVALID',
      elementIndex: i,
      field: [...field, 'ownerId'],
      message:
        "The emulator keeps app-data metafields and validations' metafields only: ownerId must be currentAppInstallation.id or a Validation id",
    }
  const found = metafieldProblem(m, field, known)
  return found ? { ...found, elementIndex: i } : null
}

/** Sets `inputs` on `list` (each one new, or the value of the one with its namespace and key). */
export function writeMetafields(
  ctx: Context,
  list: AppMetafieldRecord[],
  inputs: ReadonlyArray<Omit<Input, 'ownerId'>>,
): AppMetafieldRecord[] {
  const at = Math.floor(ctx.now() / 1000) * 1000
  return inputs.map((m) => {
    const known = list.find((s) => s.namespace === namespaceOf(m) && s.key === m.key)
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
    list.push(created)
    return created
  })
}

export const viewMetafield = (m: AppMetafieldRecord) => ({
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

const namespaceOf = (m: Pick<Input, 'namespace'>) => m.namespace ?? '$app'

export const appMetafieldMutations: ResolverMap = {
  AppInstallation: {
    metafield: (_i, args: { namespace?: string | null; key: string }, ctx: Context) => {
      const found = (extraOf(ctx.shop, ctx.now()).appMetafields ?? []).find(
        (m) => m.namespace === (args.namespace ?? '$app') && m.key === args.key,
      )
      return found ? viewMetafield(found) : null
    },
  },
  Mutation: {
    metafieldsSet: (_s, args: { metafields: Input[] }, ctx: Context) => {
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
      // A validation's metafields are the validation's: writing them takes write_validations.
      if (args.metafields.some((m) => idOf(m.ownerId, 'Validation') !== null))
        requireValidationWrite(ctx, 'metafieldsSet')
      const find = (m: Input) =>
        ownerList(ctx, m.ownerId)?.find((s) => s.namespace === namespaceOf(m) && s.key === m.key)
      // All or nothing, as the platform does: one bad input sets none.
      const errors = args.metafields.map((m, i) => problem(ctx, m, i, find(m))).filter((e) => e !== null)
      if (errors.length > 0) return { metafields: null, userErrors: errors }
      const written = args.metafields.flatMap((m) => writeMetafields(ctx, ownerList(ctx, m.ownerId)!, [m]))
      ctx.store.changed()
      return { metafields: written.map(viewMetafield), userErrors: [] }
    },
  },
}

import { accessDenied, hasScope } from '../access.ts'
import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import type { FunctionExtension } from '../function-extension.ts'
import { idOf } from '../gid.ts'
import type { ValidationRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { metafieldProblem, viewMetafield, writeMetafields } from './app-metafields.ts'

/**
 * Cart and checkout validations (shopify.dev, "Cart and Checkout Validation Function API";
 * `shopifyFunctions`, `validationCreate`, `validations`, `validation`): the app's deployed
 * functions are listed by `shopifyFunctions`, and a validation activates one on the shop, with
 * metafields its input query can read. `validationCreate` needs `write_validations`, the queries
 * `read_validations` (implied by the write scope); without them the platform answers
 * ACCESS_DENIED as a top-level error. The input's `enable` defaults to false, as on the platform:
 * a validation created without it exists but does not run. At most 25 are enabled per shop.
 */

type MetafieldInput = { namespace?: string | null; key: string; value: string; type?: string | null }
type CreateInput = {
  functionId: string
  enable?: boolean | null
  blockOnFailure?: boolean | null
  metafields?: MetafieldInput[] | null
  title?: string | null
}

const MAX_ENABLED = 25

function requireScope(ctx: Context, field: string, scope: string): void {
  if (!hasScope(ctx, scope)) throw accessDenied(field, `\`${scope}\` access scope.`)
}

/** ACCESS_DENIED without `write_validations` (also for metafieldsSet on a validation). */
export const requireValidationWrite = (ctx: Context, field: string) =>
  requireScope(ctx, field, 'write_validations')

const validationsOf = (ctx: Context): ValidationRecord[] => {
  const extra = extraOf(ctx.shop, ctx.now())
  extra.validations ??= []
  return extra.validations
}

/** The app's deployed function with `id`, as the platform answers `ShopifyFunction`. */
const functionView = (ctx: Context, fn: FunctionExtension) => ({
  id: fn.id,
  title: fn.title,
  description: fn.description,
  apiType: fn.apiType,
  apiVersion: fn.apiVersion,
  appKey: ctx.runtime.app.apiKey,
  inputQuery: fn.inputQuery,
  useCreationUi: false,
})

const failure = (code: string, field: string[], message: string) => ({
  validation: null,
  userErrors: [{ code, field, message }],
})

/** Why `input` cannot make a validation (the platform's userErrors), or null. */
function createProblem(ctx: Context, input: CreateInput) {
  const fn = ctx.runtime.functions.find((f) => f.id === input.functionId)
  if (!fn)
    return failure(
      'FUNCTION_NOT_FOUND',
      ['validation', 'functionId'],
      `Function ${input.functionId} not found. Ensure that it is released in the current app (${ctx.runtime.app.apiKey}), and that the app is installed.`,
    )
  if (fn.apiType !== 'cart_checkout_validation')
    return failure(
      'FUNCTION_DOES_NOT_IMPLEMENT',
      ['validation', 'functionId'],
      'Function does not implement the required interface for this cart & checkout validation.',
    )
  if (input.enable && validationsOf(ctx).filter((v) => v.enabled).length >= MAX_ENABLED)
    return failure(
      'MAX_VALIDATIONS_ACTIVATED',
      ['validation', 'enable'],
      'Cannot have more than 25 active validation functions.',
    )
  for (const [i, m] of (input.metafields ?? []).entries()) {
    const found = metafieldProblem(m, ['validation', 'metafields', String(i)], undefined)
    if (found) return failure(found.code, found.field, found.message)
  }
  return null
}

export const validationResolvers: ResolverMap = {
  QueryRoot: {
    shopifyFunctions: (_r, args: { apiType?: string | null; first?: number }, ctx: Context) => {
      const fns = ctx.runtime.functions.filter((f) => !args.apiType || f.apiType === args.apiType)
      // Cursors are made of numeric ids: the function's place in the app's list.
      const page = connection(
        fns.map((fn, i) => ({ id: i + 1, fn })),
        args,
      )
      const view = (item: { fn: FunctionExtension }) => functionView(ctx, item.fn)
      return {
        nodes: page.nodes.map(view),
        edges: page.edges.map((e) => ({ cursor: e.cursor, node: view(e.node) })),
        pageInfo: page.pageInfo,
      }
    },
    validations: (_r, args: { first?: number }, ctx: Context) => {
      requireScope(ctx, 'validations', 'read_validations')
      return connection(validationsOf(ctx), args)
    },
    validation: (_r, args: { id: string }, ctx: Context) => {
      requireScope(ctx, 'validation', 'read_validations')
      return validationsOf(ctx).find((v) => v.id === idOf(args.id, 'Validation')) ?? null
    },
  },
  Validation: {
    shopifyFunction: (v: ValidationRecord, _a, ctx: Context) => {
      const fn = ctx.runtime.functions.find((f) => f.id === v.functionId)
      return fn ? functionView(ctx, fn) : null
    },
    metafield: (v: ValidationRecord, args: { namespace?: string | null; key: string }) => {
      const found = v.metafields.find((m) => m.namespace === (args.namespace ?? '$app') && m.key === args.key)
      return found ? viewMetafield(found) : null
    },
  },
  Mutation: {
    validationCreate: (_m, args: { validation: CreateInput }, ctx: Context) => {
      requireValidationWrite(ctx, 'validationCreate')
      const input = args.validation
      const refused = createProblem(ctx, input)
      if (refused) return refused
      const fn = ctx.runtime.functions.find((f) => f.id === input.functionId)!
      const at = Math.floor(ctx.now() / 1000) * 1000
      const validation: ValidationRecord = {
        id: newId(ctx.shop, 'Validation'),
        functionId: fn.id,
        title: input.title ?? fn.title,
        enabled: input.enable === true,
        blockOnFailure: input.blockOnFailure === true,
        metafields: [],
        createdAt: at,
        updatedAt: at,
      }
      writeMetafields(ctx, validation.metafields, input.metafields ?? [])
      validationsOf(ctx).push(validation)
      ctx.store.changed()
      return { validation, userErrors: [] }
    },
  },
}

import { GraphQLError } from 'graphql'
import { accessDenied, hasScope } from '../access.ts'
import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import type { WebPixelRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { settingsObject, settingsProblem } from '../web-pixel-extension.ts'

/**
 * Web pixels (shopify.dev, "Build web pixels"; `webPixelCreate`, `webPixelUpdate`,
 * `webPixelDelete`, `webPixel`): an app activates its pixel extension on a shop by creating
 * its one web pixel there with settings, which the platform validates against the deployed
 * extension's settings definition (../web-pixel-extension.ts). One per app per shop: a second
 * create is TAKEN. The mutations need `write_pixels` and `read_customer_events`, the query
 * `read_pixels` (implied by `write_pixels`); without them the platform answers ACCESS_DENIED
 * as a top-level error and the field is null. `WebPixel.settings` is answered as the platform
 * does, a JSON-encoded string; the input takes an object or such a string.
 */

type UserError = { code: string; field: string[]; message: string }

const NOT_FOUND_MESSAGE = 'No web pixel was found for this app.'

/** The platform's answer to a field the token's scopes do not cover. */
function requireAccess(ctx: Context, field: string, scopes: string[]): void {
  if (scopes.every((s) => hasScope(ctx, s))) return
  const [first, ...more] = scopes
  const requiredAccess = `\`${first}\` access scope.${more.length > 0 ? ` Also: The app requires ${more.join(', ')} access scope${more.length > 1 ? 's' : ''} and user access permission.` : ''}`
  throw accessDenied(field, requiredAccess)
}

const view = (p: WebPixelRecord) => ({ id: p.id, settings: JSON.stringify(p.settings) })
const failure = (code: string, field: string[], message: string) => ({
  ok: false as const,
  userErrors: [{ code, field, message }] satisfies UserError[],
})
type Checked = { ok: true; settings: Record<string, unknown> } | ReturnType<typeof failure>

/** The extension and the settings, checked as the platform does before anything is written. */
function checkedSettings(ctx: Context, input: unknown): Checked {
  const ext = ctx.runtime.pixelExtension
  if (!ext) return failure('NO_EXTENSION', ['webPixel'], 'No extension found.')
  if (ext.definitionProblem)
    return failure(
      'INVALID_SETTINGS_DEFINITION',
      ['webPixel', 'settings'],
      `The settings definition of the web pixel extension is in an invalid state on the app: ${ext.definitionProblem}`,
    )
  const parsed = settingsObject(input)
  if (!parsed.ok) return failure(parsed.code, ['webPixel', 'settings'], parsed.message)
  const problem = settingsProblem(ext, parsed.settings)
  return problem ? failure(problem.code, ['webPixel', 'settings'], problem.message) : parsed
}

/** The shop's pixel when `id` names it; null otherwise. */
function pixelById(ctx: Context, id: string): WebPixelRecord | null {
  const pixel = extraOf(ctx.shop, ctx.now()).webPixel ?? null
  return pixel && idOf(id, 'WebPixel') === pixel.id ? pixel : null
}

const WRITE = ['write_pixels', 'read_customer_events']

export const webPixelResolvers: ResolverMap = {
  QueryRoot: {
    webPixel: (_r, args: { id?: string | null }, ctx: Context) => {
      requireAccess(ctx, 'webPixel', ['read_pixels'])
      const pixel = args.id ? pixelById(ctx, args.id) : (extraOf(ctx.shop, ctx.now()).webPixel ?? null)
      if (!pixel) throw new GraphQLError(NOT_FOUND_MESSAGE)
      return view(pixel)
    },
  },
  Mutation: {
    webPixelCreate: (_m, args: { webPixel: { settings: unknown } }, ctx: Context) => {
      requireAccess(ctx, 'webPixelCreate', WRITE)
      const extra = extraOf(ctx.shop, ctx.now())
      const checked = checkedSettings(ctx, args.webPixel.settings)
      if (!checked.ok) return { webPixel: null, userErrors: checked.userErrors }
      if (extra.webPixel)
        return {
          webPixel: null,
          userErrors: failure('TAKEN', ['webPixel'], 'Web pixel is taken.').userErrors,
        }
      const at = Math.floor(ctx.now() / 1000) * 1000
      const pixel: WebPixelRecord = {
        id: newId(ctx.shop, 'WebPixel'),
        settings: checked.settings,
        createdAt: at,
        updatedAt: at,
      }
      extra.webPixel = pixel
      ctx.store.changed()
      return { webPixel: view(pixel), userErrors: [] }
    },
    webPixelUpdate: (_m, args: { id: string; webPixel: { settings: unknown } }, ctx: Context) => {
      requireAccess(ctx, 'webPixelUpdate', WRITE)
      const pixel = pixelById(ctx, args.id)
      if (!pixel)
        return { webPixel: null, userErrors: failure('NOT_FOUND', ['id'], NOT_FOUND_MESSAGE).userErrors }
      const checked = checkedSettings(ctx, args.webPixel.settings)
      if (!checked.ok) return { webPixel: null, userErrors: checked.userErrors }
      pixel.settings = checked.settings
      pixel.updatedAt = Math.floor(ctx.now() / 1000) * 1000
      ctx.store.changed()
      return { webPixel: view(pixel), userErrors: [] }
    },
    webPixelDelete: (_m, args: { id: string }, ctx: Context) => {
      requireAccess(ctx, 'webPixelDelete', WRITE)
      const pixel = pixelById(ctx, args.id)
      if (!pixel)
        return {
          deletedWebPixelId: null,
          userErrors: failure('NOT_FOUND', ['id'], NOT_FOUND_MESSAGE).userErrors,
        }
      extraOf(ctx.shop, ctx.now()).webPixel = null
      ctx.store.changed()
      return { deletedWebPixelId: `gid://shopify/WebPixel/${pixel.id}`, userErrors: [] }
    },
  },
}

import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { deleteRecord, userError } from '../mutations/common.ts'
import type { ScriptTagRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'

/**
 * Script tags (shopify.dev, REST `ScriptTag`: "Script tags are scoped to the app that created
 * them. When an app is uninstalled from a shop, all of the script tags that it created are
 * automatically removed along with it"). The emulator plays one app: a tag belongs to the app
 * whose client id created it (`apiKey`), the list and deletes see only those, and a shop starts
 * with none (a real shop has no tag an app never created). The messages are the emulator's.
 */

type ScriptTagInput = {
  src?: string | null
  displayScope?: ScriptTagRecord['displayScope'] | null
  cache?: boolean
}

const ownTags = (ctx: Context) =>
  extraOf(ctx.shop, ctx.now()).scriptTags.filter((t) => t.apiKey === ctx.runtime.app.apiKey)

/** An app deletes only its own script tags: another app's tag is not found. */
const TAGS = {
  key: 'scriptTags',
  type: 'ScriptTag',
  missing: 'Script tag does not exist',
  visible: (ctx: Context) => ownTags(ctx),
} as const

function secureUrl(src: string | null | undefined): boolean {
  try {
    return new URL(src ?? '').protocol === 'https:'
  } catch {
    return false
  }
}

export const scriptTagResolvers: ResolverMap = {
  QueryRoot: {
    scriptTags: (_s, args, ctx: Context) => {
      const tags = ownTags(ctx)
      return connection(args.src ? tags.filter((t) => t.src === args.src) : tags, args)
    },
  },
  Mutation: {
    scriptTagCreate: (_s, args: { input: ScriptTagInput }, ctx: Context) => {
      const { src, displayScope, cache } = args.input
      if (!secureUrl(src))
        return {
          scriptTag: null,
          userErrors: [userError(['input', 'src'], 'Source must be an https URL', null)],
        }
      const at = Math.floor(ctx.now() / 1000) * 1000
      const tag: ScriptTagRecord = {
        id: newId(ctx.shop, 'ScriptTag'),
        src: src!,
        displayScope: displayScope ?? 'ONLINE_STORE',
        cache: cache ?? false,
        apiKey: ctx.runtime.app.apiKey,
        createdAt: at,
        updatedAt: at,
      }
      extraOf(ctx.shop, ctx.now()).scriptTags.push(tag)
      ctx.store.changed()
      return { scriptTag: tag, userErrors: [] }
    },
    scriptTagDelete: (_s, args: { id: string }, ctx: Context) => {
      const { deleted, userErrors } = deleteRecord(ctx, args.id, TAGS)
      return { deletedScriptTagId: deleted, userErrors }
    },
  },
}

import { createHash } from 'node:crypto'
import { accessDenied, hasScope } from '../access.ts'
import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { lookup, type UserError, userError } from '../mutations/common.ts'
import type { ThemeFileRecord, ThemeRecord } from '../records-extra.ts'
import { extraOf } from '../shop-extra.ts'

const MAX_UPSERT = 50
export const THEME_FILES_ACCESS =
  'The user needs write_themes and an exemption from Shopify to modify theme files.'

/** `templates/*.json` style patterns, as `theme.files(filenames:)` accepts them. */
const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  )

const contentType = (filename: string) =>
  filename.endsWith('.json')
    ? 'application/json'
    : filename.endsWith('.css')
      ? 'text/css'
      : filename.endsWith('.js')
        ? 'application/javascript'
        : 'text/x-liquid'

/** A stored file as the platform shows it; the list position stands in for the id cursors need. */
const fileView = (f: ThemeFileRecord, i: number) => ({
  ...f,
  id: i + 1,
  body: { __typename: 'OnlineStoreThemeFileBodyText', content: f.content },
  checksumMd5: createHash('md5').update(f.content).digest('hex'),
  contentType: contentType(f.filename),
  size: Buffer.byteLength(f.content),
})

type FileInput = { filename: string; body: { type: 'TEXT' | 'BASE64' | 'URL'; value: string } }

function decode(file: FileInput, i: number): string | UserError {
  const err = (message: string) => ({
    ...userError(['files', String(i)], message, 'FILE_VALIDATION_ERROR'),
    filename: file.filename,
  })
  const { type, value } = file.body
  if (type === 'URL') return err('URL bodies are not supported by the emulator')
  const content = type === 'BASE64' ? Buffer.from(value, 'base64').toString('utf8') : value
  // JSON templates and settings are parsed by the platform; a broken one is refused.
  if (file.filename.endsWith('.json')) {
    try {
      JSON.parse(content)
    } catch {
      return err(`${file.filename} is not valid JSON`)
    }
  }
  return content
}

export const onlineStoreResolvers: ResolverMap = {
  QueryRoot: {
    themes: (_s, args, ctx: Context) => {
      let themes = extraOf(ctx.shop, ctx.now()).themes
      if (args.roles) themes = themes.filter((t) => (args.roles as string[]).includes(t.role))
      if (args.names) themes = themes.filter((t) => (args.names as string[]).includes(t.name))
      return connection(themes, args)
    },
    theme: (_s, args, ctx: Context) =>
      lookup(extraOf(ctx.shop, ctx.now()).themes, args.id, 'OnlineStoreTheme') ?? null,
  },
  OnlineStoreTheme: {
    prefix: () => '/t/1',
    processing: () => false,
    processingFailed: () => false,
    themeStoreId: (t: ThemeRecord) => (t.name.startsWith('Dawn') ? 887 : null),
    files: (
      t: ThemeRecord,
      args: { filenames?: string[] | null; first?: number | null; after?: string | null },
    ) => {
      const views = t.files.map(fileView)
      if (!args.filenames)
        return { ...connection(views, { first: args.first ?? 50, after: args.after }), userErrors: [] }
      const patterns = args.filenames.map((f) => ({ name: f, re: globToRegExp(f) }))
      const matched = views.filter((v) => patterns.some((p) => p.re.test(v.filename)))
      const missing = patterns.filter(
        (p) => !p.name.includes('*') && !views.some((v) => p.re.test(v.filename)),
      )
      return {
        ...connection(matched, { first: args.first ?? 50, after: args.after }),
        userErrors: missing.map((p) => ({ code: 'NOT_FOUND', filename: p.name })),
      }
    },
  },
  Mutation: {
    themeFilesUpsert: (_s, args: { themeId: string; files: FileInput[] }, ctx: Context) => {
      // shopify.dev, themeFilesUpsert: "The user needs write_themes and an exemption from
      // Shopify to modify theme files" (few apps get it): without both, the platform's
      // ACCESS_DENIED and no write. `themeFilesExemption` says whether this app has it.
      if (!ctx.runtime.themeFilesExemption || !hasScope(ctx, 'write_themes'))
        throw accessDenied('themeFilesUpsert', THEME_FILES_ACCESS)
      const theme = lookup(extraOf(ctx.shop, ctx.now()).themes, args.themeId, 'OnlineStoreTheme')
      const fail = (e: UserError & { filename?: string }) => ({
        upsertedThemeFiles: null,
        userErrors: [{ filename: null, ...e }],
      })
      if (!theme) return fail(userError(['themeId'], 'Theme does not exist', 'NOT_FOUND'))
      if (args.files.length > MAX_UPSERT)
        return fail(userError(['files'], `At most ${MAX_UPSERT} files per call`, 'LESS_THAN_OR_EQUAL_TO'))
      const names = args.files.map((f) => f.filename)
      if (new Set(names).size !== names.length)
        return fail(userError(['files'], 'A file is given twice', 'DUPLICATE_FILE_INPUT'))
      const contents: string[] = []
      for (const [i, f] of args.files.entries()) {
        const c = decode(f, i)
        if (typeof c !== 'string') return fail(c)
        contents.push(c)
      }
      const now = Math.floor(ctx.now() / 1000) * 1000
      const byName = new Map(theme.files.map((f) => [f.filename, f]))
      const written = args.files.map((f, i) => {
        const old = byName.get(f.filename)
        const file = {
          filename: f.filename,
          content: contents[i]!,
          createdAt: old?.createdAt ?? now,
          updatedAt: now,
        }
        byName.set(f.filename, file)
        return file
      })
      theme.files = [...byName.values()].sort((a, b) => a.filename.localeCompare(b.filename))
      theme.updatedAt = now
      ctx.store.changed()
      return { upsertedThemeFiles: written.map(fileView), userErrors: [] }
    },
  },
}

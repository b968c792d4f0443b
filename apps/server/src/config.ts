import { isIP } from 'node:net'
import { z } from 'zod'

/**
 * Every environment variable the server reads. The README's configuration table is this
 * list; keep them in step.
 */
const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Unset: the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  /** Connections this process keeps to PostgreSQL (about 2-4 per CPU core of the database). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().default('.data'),
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /**
   * The emulator's test controls (`POST /emulator/faults` on EMULATOR_PORT), for benches that
   * run `npm start` as a fixture. Off by default: nobody can make a running emulator fail.
   */
  EMULATOR_TEST_CONTROLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * The emulated app holds Shopify's exemption to write theme files (themeFilesUpsert). Off by
   * default, as for nearly every app: ウィジェットを追加 opens the theme editor at the block.
   */
  EMULATOR_THEME_FILES_EXEMPTION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Scopes the demo shop's merchant has not granted, comma-separated (`read_all_orders`: the
   * emulator then gives the app 60 days of orders, as the platform does).
   */
  EMULATOR_DECLINED_SCOPES: z
    .string()
    .optional()
    .transform((value) =>
      value
        ? value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  /** Fixes the demo shop's `secret`; otherwise one is generated once and kept in DATA_DIR. */
  DEMO_SECRET: z.string().min(8).optional(),
  /** The app's client id and secret from the Partner dashboard (session tokens, webhooks). */
  SHOPIFY_API_KEY: z.string().optional(),
  SHOPIFY_API_SECRET: z.string().optional(),
  /** Public URL of this app (e.g. https://teiki.example.com); printed links use it. */
  SHOPIFY_APP_URL: z.string().url().optional(),
  /**
   * Where the Admin API lives. Unset: `https://{shop}` (the real platform). The embedded
   * default points it at the emulator. `{shop}` is replaced by the shop's domain.
   */
  SHOPIFY_ADMIN_ORIGIN: z.string().optional(),
  /**
   * SMTP server for the app's mail: smtp(s)://user:pass@host:port. Unset: the local catcher in
   * the embedded default; against the real platform start refuses unless MAIL_FILE_OUTBOX=true.
   */
  SMTP_URL: z.string().url().optional(),
  /**
   * `true`: without SMTP_URL, write each mail as an .eml file to DATA_DIR/outbox, even against
   * the real platform (no customer receives them: asked for explicitly, never by default).
   */
  MAIL_FILE_OUTBOX: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** Sender of the app's mail. */
  MAIL_FROM: z.string().optional(),
  /**
   * The embedded default's local SMTP catcher (when SMTP_URL is unset and no real platform is
   * configured): its SMTP port, its page on the next one. Unset: PORT + 25 (0 when PORT is 0).
   * `off` writes .eml files to DATA_DIR/outbox instead.
   */
  MAIL_CATCHER_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65534)]).optional(),
  /** Error reporting (Sentry-compatible DSN) of the server; unset: nothing is sent anywhere. */
  SENTRY_DSN: z.string().url().optional(),
  /** Error reporting of the browser pages (handed to the page); unset: nothing is sent. */
  SENTRY_DSN_WEB: z.string().url().optional(),
  /**
   * Whose X-Forwarded-For/-Proto to believe: unset or `false` none (the default: a client could
   * claim any address or https), `true` any, a hop count (`1`: the one proxy in front), or a
   * comma-separated list of proxy addresses/CIDRs (`10.0.0.0/8,127.0.0.1`).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value)
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'true, false, a hop count or a comma-separated list of addresses/CIDRs',
        })
        return z.NEVER
      }
      return parsed
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type Config = z.infer<typeof ZEnv>

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`invalid configuration:\n${lines.join('\n')}`)
  }
  return parsed.data
}

/** TRUST_PROXY as Fastify's `trustProxy`; null when it is none of the accepted forms. */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] | null {
  const text = value?.trim() ?? ''
  if (text === '' || text === 'false') return false
  if (text === 'true') return true
  if (/^\d+$/.test(text)) return Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  const valid = entries.every((entry) => {
    const [address, bits, ...rest] = entry.split('/')
    const family = isIP(address ?? '')
    if (family === 0 || rest.length > 0) return false
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
  })
  return valid ? entries : null
}

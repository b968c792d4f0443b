// `npm run flags -- --shop <domain> [--set <flag>=on|off]...`
//
// The operator's command for the per-shop flags of spec section 6 (apps/server/src/features/
// shop-flags): sets the given flags of one installed shop in one transaction and prints the
// shop's flags after as one JSON line. Without --set it only prints them. `--help` lists the
// flags and what each changes. Exit 0 on success, 1 on an error, 2 on bad arguments or an
// unknown shop.
//
// The database is found as `npm run billing` finds it: DATABASE_URL; else the running app's
// embedded PGlite through its socket (DATA_DIR/runtime.json: flags are read fresh by every
// request, so the change counts at once); else this script takes DATA_DIR/embedded.lock and
// opens DATA_DIR/pglite itself.
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../apps/server/src/config.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool, setPreparedStatements, withTransaction } from '../apps/server/src/db/pool.ts'
import {
  applyFlagChanges,
  FLAG_EFFECTS,
  type FlagChange,
  parseFlagSetting,
} from '../apps/server/src/features/shop-flags/command.ts'
import { lockDataDir, readRuntimeInfo } from '../apps/server/src/process/runtime.ts'

const USAGE = 'usage: npm run flags -- --shop <domain> [--set <flag>=on|off]...'

function usage(message: string): never {
  console.error(`[flags] ${message}`)
  console.error(USAGE)
  process.exit(2)
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        shop: { type: 'string' },
        set: { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
    })
  } catch (error) {
    return usage((error as Error).message)
  }
})()
if (values.help) {
  console.log(USAGE)
  for (const [flag, effect] of Object.entries(FLAG_EFFECTS)) console.log(`  ${flag.padEnd(20)} ${effect}`)
  process.exit(0)
}
if (!values.shop) usage('--shop is required')
const changes: FlagChange[] = []
for (const text of values.set ?? []) {
  const parsed = parseFlagSetting(text)
  if (typeof parsed === 'string') usage(parsed)
  changes.push(parsed)
}

async function main(): Promise<number> {
  const config = loadConfig()
  const dataDir = resolve(config.DATA_DIR)
  process.umask(0o077)
  let databaseUrl = config.DATABASE_URL
  let embedded: EmbeddedPostgres | undefined
  let unlock: (() => void) | undefined
  if (!databaseUrl) {
    const app = readRuntimeInfo(dataDir)
    if (app?.databaseUrl) databaseUrl = app.databaseUrl
    else {
      unlock = lockDataDir(dataDir, 'npm run flags')
      embedded = await startEmbeddedPostgres({
        dataDir: join(dataDir, 'pglite'),
        socketDir: join(dataDir, 'socket'),
      })
      databaseUrl = embedded.url
    }
  }
  // A one-shot command gains nothing from named statements, and PGlite (one backend for every
  // connection) keeps them across connections, where a second run would collide with its own.
  setPreparedStatements(false)
  const pool = createPool(databaseUrl!, 2)
  try {
    if (embedded) await migrate(pool)
    const flags = await withTransaction(pool, (tx) => applyFlagChanges(tx, values.shop!, changes))
    if (!flags) {
      console.error(
        `[flags] ${values.shop} はインストールされていません (no installed shop with this domain)`,
      )
      return 2
    }
    console.log(JSON.stringify({ shop: values.shop, flags }))
    return 0
  } finally {
    await pool.end()
    await embedded?.stop()
    unlock?.()
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('[flags] failed:', error)
    process.exit(1)
  },
)

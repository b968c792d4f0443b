// Theme Check on every theme app extension (part of `npm run lint`): Shopify's Liquid linter,
// @shopify/theme-check-node, the library behind `shopify theme check` and the check the Shopify
// CLI runs on a theme app extension at `shopify app dev` / `deploy`. Each folder under
// extensions/ whose shopify.extension.toml says `type = "theme"` is checked with the
// `.theme-check.yml` beside that file (which extends `theme-check:theme-app-extension`, the
// preset for app extensions); other extensions (the web pixel: JavaScript, no Liquid) are
// skipped. Prints each offense as path:line:column and exits 1 when any is an error (warnings
// and suggestions are printed but pass, as at the CLI's default fail level).
//
// Offline and the same on every machine: Theme Check's docs manager would fetch the latest
// Liquid reference (filters, objects, tags, JSON schemas) from the network on each run and keep
// it in ~/.cache, so results would drift with the day's docs. Its cache is pointed at a fresh
// temporary folder and its source at a folder that does not exist, so it uses the reference
// bundled with the pinned package version instead.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
const EXTENSIONS = join(ROOT, 'extensions')
const SEVERITY = ['error', 'warning', 'info'] as const

const scratch = mkdtempSync(join(tmpdir(), 'teiki-theme-check-'))
process.env.XDG_CACHE_HOME = scratch
process.env.SHOPIFY_TLD_ROOT = join(scratch, 'no-download')
// Imported only now: the docs manager reads both variables when it loads.
const { themeCheckRun, Severity } = await import('@shopify/theme-check-node')

let errors = 0
try {
  for (const name of readdirSync(EXTENSIONS).sort()) {
    const folder = join(EXTENSIONS, name)
    const manifest = join(folder, 'shopify.extension.toml')
    if (!existsSync(manifest)) continue
    const type = /^type\s*=\s*"([^"]+)"/m.exec(readFileSync(manifest, 'utf8'))?.[1]
    if (type !== 'theme') {
      console.log(`theme-check: extensions/${name} skipped (type ${type ?? 'unknown'}: no Liquid)`)
      continue
    }
    const config = join(folder, '.theme-check.yml')
    if (!existsSync(config)) {
      console.error(
        `theme-check: extensions/${name}/.theme-check.yml is missing (theme-app-extension preset)`,
      )
      errors += 1
      continue
    }
    const { theme, offenses } = await themeCheckRun(folder, config)
    offenses.sort((a, b) => a.uri.localeCompare(b.uri) || a.start.index - b.start.index)
    for (const offense of offenses) {
      const file = relative(ROOT, fileURLToPath(offense.uri))
      const where = `${file}:${offense.start.line + 1}:${offense.start.character + 1}`
      console.log(`${where} ${SEVERITY[offense.severity]} ${offense.check}: ${offense.message}`)
      if (offense.severity === Severity.ERROR) errors += 1
    }
    console.log(`theme-check: extensions/${name}: ${theme.length} files, ${offenses.length} offenses`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
if (errors > 0) {
  console.error(`theme-check: ${errors} error(s)`)
  process.exit(1)
}

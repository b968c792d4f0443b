// Builds the web app (vite build) when its build is missing or older than its sources. Used by
// `npm start` (scripts/start.mjs) and by the end-to-end tests' global setup, which builds once
// before the files start apps side by side (two `vite build`s into one folder would clash).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = join(root, 'apps/web/dist/index.html')
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/domain/src',
  'packages/contract/src',
]

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))))
}

/** Builds when needed; returns the build's exit status (0 when nothing had to be built). */
export function buildWebIfStale() {
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0
  const sourcesAt = Math.max(...sources.map((path) => newestMtime(join(root, path))))
  if (builtAt >= sourcesAt) return 0
  console.log('[teiki] 画面をビルドしています (vite build)…')
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: join(root, 'apps/web'),
      stdio: 'inherit',
      // Always the production build: a NODE_ENV inherited from the caller (vitest sets `test`)
      // would build React's development runtime and libraries' test branches (polaris-viz's
      // tooltip then breaks), so what the e2e tests see would not be what a merchant gets.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
  return result.status ?? 1
}

#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources,
// then runs the server (TypeScript through tsx) in this process, so Ctrl-C reaches it
// directly and it can shut everything down cleanly.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

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

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0
const sourcesAt = Math.max(...sources.map((path) => newestMtime(join(root, path))))
if (builtAt < sourcesAt) {
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
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const { register } = await import('tsx/esm/api')
register()
await import(pathToFileURL(join(root, 'apps/server/src/main.ts')).href)

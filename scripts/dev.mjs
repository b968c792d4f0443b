#!/usr/bin/env node
// `npm run dev`: the whole app as `npm start` runs it (API, emulator, embedded database on
// PORT, default 3000) plus Vite's dev server with hot reload on 5173, which proxies
// /app-admin to the API. Open the printed URL with port 5173 instead of 3000.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const children = [
  spawn(process.execPath, [join(root, 'scripts/start.mjs')], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), '--port', '5173', '--strictPort'], {
    cwd: join(root, 'apps/web'),
    stdio: 'inherit',
  }),
]
console.log(
  '[teiki] 開発サーバー: 表示された URL のポートを 5173 に替えて開くと、画面の変更が即時に反映されます。',
)

let stopping = false
const stop = (signal) => {
  if (stopping) return
  stopping = true
  for (const child of children) if (child.exitCode === null) child.kill(signal)
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM')
    process.exitCode = process.exitCode || code || 0
  })

#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources,
// then runs the server (TypeScript through tsx) in this process, so Ctrl-C reaches it
// directly and it can shut everything down cleanly.
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildWebIfStale } from './build-web.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const status = buildWebIfStale()
if (status !== 0) process.exit(status)

const { register } = await import('tsx/esm/api')
register()
await import(pathToFileURL(join(root, 'apps/server/src/main.ts')).href)

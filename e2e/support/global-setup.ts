import { buildWebIfStale } from '../../scripts/build-web.mjs'

/**
 * Builds the web app once before any end-to-end file starts `npm start`: the files run side by
 * side, and each `npm start` would otherwise find the build stale and run its own vite build
 * into the same folder.
 */
export default function setup(): void {
  const status = buildWebIfStale()
  if (status !== 0) throw new Error(`vite build failed (${status})`)
}

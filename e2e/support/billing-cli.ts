import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ROOT } from './app-process.ts'

/** What `npm run billing` prints: the run's summary (`notices` with `--notices`). */
export type BillingCliSummary = {
  now: string
  due: number
  succeeded: number
  failed: number
  notices?: number
}

/**
 * `npm run billing -- --shop <shop> --now <now> [more…]` as the merchant types it, beside the
 * app `npm start` runs on `dataDir` (the running app makes the run and answers); the summary it
 * prints last.
 */
export async function npmRunBilling(
  dataDir: string,
  shop: string,
  now: string,
  ...more: string[]
): Promise<BillingCliSummary> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir }
  delete env.DATABASE_URL
  delete env.SHOPIFY_API_KEY
  delete env.SHOPIFY_API_SECRET
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'billing', '--', '--shop', shop, '--now', now, ...more],
    { cwd: ROOT, env, timeout: 240_000 },
  )
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as BillingCliSummary
}

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ROOT, type RunningApp } from './app-process.ts'

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
 * prints last. When the command fails, the error carries the end of the app's own log, where the
 * server wrote why it answered as it did.
 */
export async function npmRunBilling(
  app: Pick<RunningApp, 'output'>,
  dataDir: string,
  shop: string,
  now: string,
  ...more: string[]
): Promise<BillingCliSummary> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir }
  delete env.DATABASE_URL
  delete env.SHOPIFY_API_KEY
  delete env.SHOPIFY_API_SECRET
  try {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'billing', '--', '--shop', shop, '--now', now, ...more],
      { cwd: ROOT, env, timeout: 240_000 },
    )
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as BillingCliSummary
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`${message}\n--- the app's log (last 6,000 characters) ---\n${app.output().slice(-6000)}`)
  }
}

import { defineConfig } from 'vitest/config'

// One runner for everything. Each project is a noun of the repo; `npm test` runs them all.
// TZ is pinned to UTC by the npm script so Japan-time code is proven zone-independent.
// Every project fails the test during which an unhandled rejection happened (test-support/unhandled.ts).
const setupFiles = ['test-support/unhandled.ts']

export default defineConfig({
  test: {
    // Most files wait on something (PostgreSQL, a child process, a browser, the emulator's pacing)
    // far more than they compute: the default of one worker on a two-core machine left a core
    // idle for most of the run. Four files at a time (the end-to-end files one at a time, after).
    maxWorkers: 4,
    projects: [
      { test: { name: 'domain', include: ['packages/domain/test/**/*.test.ts'], setupFiles } },
      { test: { name: 'contract', include: ['packages/contract/test/**/*.test.ts'], setupFiles } },
      // The platform extensions' own code (a Shopify Function is tested beside it, as the CLI's templates do).
      { test: { name: 'extensions', include: ['extensions/*/test/**/*.test.ts'], setupFiles } },
      {
        test: {
          name: 'emulator',
          setupFiles,
          include: ['packages/shopify-emulator/test/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          setupFiles,
          include: ['apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      { test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], setupFiles } },
      {
        test: {
          name: 'e2e',
          setupFiles,
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One at a time, after the other projects: run beside the other e2e files, app-plan's
          // approved plan change was not seen (it passes alone); to be found before they share.
          fileParallelism: false,
        },
      },
    ],
  },
})

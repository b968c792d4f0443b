import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createSchema, planBucket, queryCost } from '@teiki/shopify-emulator'
import { type OperationDefinitionNode, parse } from 'graphql'
import pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { createAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { CUSTOMERS_PAGE } from '../apps/server/src/platform/operations/customers-page.ts'
import { SUBSCRIPTION_CONTRACTS_PAGE } from '../apps/server/src/platform/operations/subscription-contracts-page.ts'
import { SYNC_PAGE_SIZES } from '../apps/server/src/sync/full-sync.ts'
import { ROOT } from './server-process.ts'

type EmulatorInfo = {
  url: string
  accessToken: string
  domain: string
  contracts: number
  customers: number
  lines: number
  plan: string
  generatedMs: number
}

/**
 * `--only sync`: the initial sync of a 100k-contract Standard-plan shop (100 points/s, bucket
 * 2,000) into an empty mirror, through the real client and HTTP. The emulator and the sync
 * each run in their own process; the sync process reports its wall time and peak RSS.
 */
export async function benchSync(opts: {
  baseUrl: string
  contracts: number
  log: (line: string) => void
}): Promise<Record<string, unknown>> {
  const { log } = opts
  const dbName = `teiki_bench_sync_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: opts.baseUrl })
  await admin.connect()
  await admin.query(`create database ${dbName}`)
  await admin.end()
  const dbUrl = new URL(opts.baseUrl)
  dbUrl.pathname = `/${dbName}`
  const migrations = createPool(dbUrl.toString(), 1)
  await migrate(migrations)
  await migrations.end()

  const emulatorChild = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'bench/emulator-process.ts'),
      '--contracts',
      String(opts.contracts),
      '--plan',
      'Basic',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    const emulator = JSON.parse(await lineOf(emulatorChild, 'EMULATOR ', 300_000)) as EmulatorInfo
    log(
      `sync: emulator shop ${emulator.contracts.toLocaleString()} contracts, ${emulator.lines.toLocaleString()} lines, ` +
        `${emulator.customers.toLocaleString()} customers, plan ${emulator.plan} (generated in ${emulator.generatedMs} ms)`,
    )
    const syncChild = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/sync-child.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BENCH_SYNC_DATABASE_URL: dbUrl.toString(),
        BENCH_SYNC_EMULATOR_URL: emulator.url,
        BENCH_SYNC_TOKEN: emulator.accessToken,
        BENCH_SYNC_DOMAIN: emulator.domain,
      },
    })
    syncChild.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n'))
        if (line.startsWith('PROGRESS ')) log(`sync: ${line.slice(9)}`)
    })
    const result = JSON.parse(await lineOf(syncChild, 'RESULT ', 600_000)) as {
      wallMs: number
      summary: {
        contracts: number
        customers: number
        bulk?: Array<{
          kind: string
          polls: number
          platformMs: number
          observedMs: number
          ingestMs: number
        }>
        bulkFallbacks?: string[]
      }
      stats: { requests: number; throttled: number; retried: number; pointsSpent: number }
      mirror: { contracts: number; lines: number; customers: number; events: number }
      peakRssMB: number
    }

    // What pages would cost: a few sample pages of each, priced by the platform itself.
    const contractsPage = await samplePageCost(
      emulator,
      'SubscriptionContractsPage',
      SUBSCRIPTION_CONTRACTS_PAGE,
      {
        first: SYNC_PAGE_SIZES.contracts,
      },
    )
    const customersPage = await samplePageCost(emulator, 'CustomersPage', CUSTOMERS_PAGE, {
      first: SYNC_PAGE_SIZES.customers,
    })
    const { restoreRate, bucketSize: bucket } = planBucket({
      displayName: emulator.plan,
      partnerDevelopment: false,
      shopifyPlus: emulator.plan === 'Shopify Plus',
    })

    // Bulk path minimum = points spent by the whole sync (the two bulkOperationRunQuery
    // mutations, the polls, shop details, product and group pages) / restore rate, plus the
    // platform's own processing time of each export (completedAt − createdAt as reported;
    // one bulk query runs at a time, so they add up). The full bucket at the start would let
    // the points go faster still: this is the minimum for spending them at the restore rate.
    const bulkPlatformMs = (result.summary.bulk ?? []).reduce((n, b) => n + b.platformMs, 0)
    const bulkMinS = result.stats.pointsSpent / restoreRate + bulkPlatformMs / 1000
    const wallS = result.wallMs / 1000
    // Paginated minimum = (contract pages × actual points per page + customer pages × points
    // per page − the full bucket at the start) / restore rate.
    const contractPages = Math.ceil(emulator.contracts / SYNC_PAGE_SIZES.contracts)
    const customerPages = Math.ceil(emulator.customers / SYNC_PAGE_SIZES.customers)
    const pagedPoints = contractPages * contractsPage.actualAvg + customerPages * customersPage.actualAvg
    const pagedMinS = Math.max(0, pagedPoints - bucket) / restoreRate

    const ok =
      result.mirror.contracts === emulator.contracts &&
      result.mirror.customers === emulator.customers &&
      result.mirror.lines === emulator.lines
    log(
      `sync: ${result.mirror.contracts.toLocaleString()} contracts, ${result.mirror.lines.toLocaleString()} lines, ` +
        `${result.mirror.customers.toLocaleString()} customers, ${result.mirror.events.toLocaleString()} events in ` +
        `${wallS.toFixed(1)} s, peak RSS ${result.peakRssMB} MB, mirror ${ok ? 'matches' : 'DIFFERS FROM'} the platform`,
    )
    for (const b of result.summary.bulk ?? []) {
      log(
        `sync:   bulk ${b.kind}: platform ${b.platformMs} ms (reported), seen COMPLETED after ${b.observedMs} ms ` +
          `(${b.polls} polls), download+write ${b.ingestMs} ms`,
      )
    }
    if (result.summary.bulkFallbacks)
      log(`sync:   FELL BACK to pages: ${result.summary.bulkFallbacks.join('; ')}`)
    log(
      `sync: bulk minimum = ${result.stats.pointsSpent} points spent / ${restoreRate} per s + ${bulkPlatformMs} ms ` +
        `platform bulk processing = ${bulkMinS.toFixed(1)} s → wall/minimum ${(wallS / bulkMinS).toFixed(2)} ` +
        `(${result.stats.requests} requests, ${result.stats.throttled} throttled, ${result.stats.retried} retried)`,
    )
    log(
      `sync: paginated minimum = (${contractPages} contract pages × ${contractsPage.actualAvg} + ${customerPages} ` +
        `customer pages × ${customersPage.actualAvg} − ${bucket} bucket) / ${restoreRate} per s = ` +
        `${pagedMinS.toFixed(0)} s (${(pagedMinS / 3600).toFixed(1)} h); bulk wall time is ` +
        `${(pagedMinS / wallS).toFixed(0)}× shorter`,
    )
    return {
      contracts: emulator.contracts,
      lines: emulator.lines,
      customers: emulator.customers,
      plan: emulator.plan,
      restoreRate,
      bucket,
      wallMs: Math.round(result.wallMs),
      peakRssMB: result.peakRssMB,
      mirror: result.mirror,
      mirrorMatches: ok,
      bulk: result.summary.bulk,
      bulkFallbacks: result.summary.bulkFallbacks ?? [],
      client: result.stats,
      bulkMinimumS: round(bulkMinS),
      ratioToBulkMinimum: round(wallS / bulkMinS),
      bulkMinimumFormula: 'pointsSpent / restoreRate + sum(bulk completedAt - createdAt)',
      paginated: {
        contractPagePoints: contractsPage.actualAvg,
        contractPageRequestedPoints: contractsPage.requested,
        customerPagePoints: customersPage.actualAvg,
        minimumS: round(pagedMinS),
        formula: '(contractPages * pointsPerPage + customerPages * pointsPerPage - bucket) / restoreRate',
      },
    }
  } finally {
    await stop(emulatorChild)
    const drop = new pg.Client({ connectionString: opts.baseUrl })
    await drop.connect()
    await drop.query(`drop database if exists ${dbName} with (force)`)
    await drop.end()
  }
}

/**
 * Average actual cost of the first `pages` pages of a paginated query (the points the paced
 * client saw charged), and its requested cost as the platform prices it.
 */
async function samplePageCost(
  emulator: EmulatorInfo,
  operationName: string,
  query: string,
  variables: Record<string, unknown>,
  pages = 5,
) {
  const client = createAdminClient({
    shop: emulator.domain,
    accessToken: emulator.accessToken,
    origin: emulator.url,
  })
  let after: string | null = null
  for (let i = 0; i < pages; i++) {
    type Page = Record<string, { pageInfo: { endCursor: string | null } }>
    const data: Page = await client.request<Page>(operationName, query, { ...variables, after })
    after = Object.values(data)[0]!.pageInfo.endCursor
  }
  const document = parse(query)
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  )!
  return {
    actualAvg: Math.round(client.stats.pointsSpent / pages),
    requested: queryCost(createSchema(), document, operation, variables),
  }
}

export function lineOf(child: ChildProcess, prefix: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = ''
    const timer = setTimeout(
      () => reject(new Error(`no ${prefix.trim()} line within ${timeoutMs} ms`)),
      timeoutMs,
    )
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split('\n').find((l) => l.startsWith(prefix))
      if (line) {
        clearTimeout(timer)
        resolve(line.slice(prefix.length))
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${prefix.trim()} process exited with ${code}`))
    })
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

const round = (n: number) => Math.round(n * 100) / 100

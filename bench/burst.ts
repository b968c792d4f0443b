import { createEmulator } from '@teiki/shopify-emulator'
import { createAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { toGid } from '../apps/server/src/platform/gid.ts'
import { setContractNextBillingDate } from '../apps/server/src/platform/operations/subscription-contract-next-billing-date.ts'

/**
 * `--only burst`: 500 mutations submitted at once against a Standard-plan shop (100 points/s,
 * bucket 2,000) through the real client and HTTP. The fastest the rate limit allows is
 * (500 × 10 − 2,000) / 100 = 30 s: the full bucket, then the restore rate. Target: no failure,
 * within 10 % of that.
 */
export async function benchBurst(opts: { mutations: number; log: (line: string) => void }) {
  const { log } = opts
  const domain = 'bench-burst.myshopify.com'
  const emulator = await createEmulator({ shops: [{ domain, contracts: 800, plan: 'Basic' }] })
  try {
    const { url } = await emulator.listen(0)
    const { accessToken } = emulator.install(domain)
    const client = createAdminClient({ shop: domain, accessToken, origin: url })
    const open = emulator.store
      .shop(domain)!
      .contracts.filter((c) => c.status !== 'CANCELLED' && c.status !== 'EXPIRED')
    const date = (i: number) => new Date(Date.UTC(2027, 0, 1 + (i % 28), 15)).toISOString()
    const restoreRate = 100
    const bucket = 2000
    const minimumS = Math.max(0, opts.mutations * 10 - bucket) / restoreRate

    const started = performance.now()
    const settled = await Promise.allSettled(
      Array.from({ length: opts.mutations }, (_, i) =>
        setContractNextBillingDate(client, toGid('SubscriptionContract', open[i % open.length]!.id), date(i)),
      ),
    )
    const seconds = (performance.now() - started) / 1000
    const failures = settled.filter((s) => s.status === 'rejected')
    const ratio = seconds / minimumS
    log(
      `burst: ${opts.mutations} mutations in ${seconds.toFixed(2)} s, minimum (${opts.mutations} × 10 − ${bucket}) / ` +
        `${restoreRate} = ${minimumS} s → ratio ${ratio.toFixed(3)} (≤ 1.10), failures ${failures.length} (0), ` +
        `THROTTLED answers ${client.stats.throttled}, paced ${(client.stats.pacedMs / 1000).toFixed(1)} s`,
    )
    if (failures[0]) log(`burst: first failure: ${String((failures[0] as PromiseRejectedResult).reason)}`)
    return {
      mutations: opts.mutations,
      seconds: Math.round(seconds * 1000) / 1000,
      minimumS,
      ratioToMinimum: Math.round(ratio * 1000) / 1000,
      failures: failures.length,
      throttledAnswers: client.stats.throttled,
      requests: client.stats.requests,
      targets: { failures: 0, ratioToMinimum: 1.1 },
    }
  } finally {
    await emulator.close()
  }
}

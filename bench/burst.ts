import { type CostExtension, createEmulator } from '@teiki/shopify-emulator'
import { createAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { reserveFor } from '../apps/server/src/platform/admission.ts'
import { toGid } from '../apps/server/src/platform/gid.ts'
import { setContractNextBillingDate } from '../apps/server/src/platform/operations/subscription-contract-next-billing-date.ts'

/**
 * `--only burst`: 500 mutations submitted at once against a Standard-plan shop through the real
 * client and HTTP. The rate limit and the cost are read from the emulator's answers
 * (`extensions.cost`), not assumed: the bucket the burst started with is the first answer's
 * `currentlyAvailable` plus what that call took, the restore rate is `throttleStatus.restoreRate`,
 * and the points are the sum of every answer's `actualQueryCost`. The fastest the rate limit
 * allows is then (points − starting bucket) / restore rate: the full bucket, then the refill.
 * The burst is background work to the client, which leaves the merchants' reserve in the bucket
 * (admission.ts: 1,000 points of Standard's 2,000), so the fastest it can go by its own rule is
 * (points − (starting bucket − reserve)) / restore rate; both ratios are reported. Target: no
 * failure, within 10 % of the rate limit's bound.
 */
export async function benchBurst(opts: { mutations: number; log: (line: string) => void }) {
  const { log } = opts
  const domain = 'bench-burst.myshopify.com'
  const emulator = await createEmulator({ shops: [{ domain, contracts: 800, plan: 'Basic' }] })
  try {
    const { url } = await emulator.listen(0)
    const { accessToken } = emulator.install(domain)
    const answers: CostExtension[] = []
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      const body = (await response.clone().json()) as { extensions?: { cost?: CostExtension } }
      if (body.extensions?.cost) answers.push(body.extensions.cost)
      return response
    }
    const client = createAdminClient({ shop: domain, accessToken, origin: url, fetch: recordingFetch })
    const open = emulator.store
      .shop(domain)!
      .contracts.filter((c) => c.status !== 'CANCELLED' && c.status !== 'EXPIRED')
    const date = (i: number) => new Date(Date.UTC(2027, 0, 1 + (i % 28), 15)).toISOString()

    const started = performance.now()
    const settled = await Promise.allSettled(
      Array.from({ length: opts.mutations }, (_, i) =>
        setContractNextBillingDate(client, toGid('SubscriptionContract', open[i % open.length]!.id), date(i)),
      ),
    )
    const seconds = (performance.now() - started) / 1000
    const failures = settled.filter((s) => s.status === 'rejected')
    const limit = rateLimitOf(answers)
    const ratio = seconds / limit.minimumS
    const reserve = reserveFor(limit.bucketSize)
    const withReserveS = Math.max(0, limit.points - (limit.startingBucket - reserve)) / limit.restoreRate
    log(
      `burst: ${opts.mutations} mutations in ${seconds.toFixed(2)} s; from the answers: ${limit.points} points ` +
        `(${limit.costs.join('/')} a mutation), bucket ${limit.startingBucket} of ${limit.bucketSize}, ` +
        `${limit.restoreRate} points/s → minimum (${limit.points} − ${limit.startingBucket}) / ${limit.restoreRate} = ` +
        `${limit.minimumS.toFixed(1)} s → ratio ${ratio.toFixed(3)} (≤ 1.10); keeping the merchants' reserve of ${reserve}: ` +
        `${withReserveS.toFixed(1)} s → ratio ${(seconds / withReserveS).toFixed(3)}; failures ${failures.length} (0), ` +
        `THROTTLED answers ${limit.throttled} (client saw ${client.stats.throttled}), paced ${(client.stats.pacedMs / 1000).toFixed(1)} s`,
    )
    if (failures[0]) log(`burst: first failure: ${String((failures[0] as PromiseRejectedResult).reason)}`)
    return {
      mutations: opts.mutations,
      seconds: Math.round(seconds * 1000) / 1000,
      ...limit,
      ratioToMinimum: Math.round(ratio * 1000) / 1000,
      merchantReserve: reserve,
      minimumKeepingReserveS: withReserveS,
      ratioToMinimumKeepingReserve: Math.round((seconds / withReserveS) * 1000) / 1000,
      failures: failures.length,
      throttledAnswers: limit.throttled,
      requests: client.stats.requests,
      targets: { failures: 0, ratioToMinimum: 1.1 },
    }
  } finally {
    await emulator.close()
  }
}

/** The rate limit and the points spent, as the platform's answers state them. */
function rateLimitOf(answers: CostExtension[]) {
  const first = answers[0]
  if (!first) throw new Error('no answer carried extensions.cost')
  const { restoreRate, maximumAvailable } = first.throttleStatus
  const startingBucket = first.throttleStatus.currentlyAvailable + (first.actualQueryCost ?? 0)
  let points = 0
  let throttled = 0
  const costs = new Set<number>()
  for (const a of answers) {
    if (a.actualQueryCost === null) throttled++
    else {
      points += a.actualQueryCost
      costs.add(a.actualQueryCost)
    }
  }
  return {
    restoreRate,
    bucketSize: maximumAvailable,
    startingBucket: Math.min(maximumAvailable, Math.round(startingBucket)),
    points,
    costs: [...costs].sort((a, b) => a - b),
    throttled,
    minimumS: Math.max(0, points - Math.min(maximumAvailable, startingBucket)) / restoreRate,
  }
}

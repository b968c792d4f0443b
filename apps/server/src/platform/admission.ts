import { PlatformBusyError } from './errors.ts'

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number }

/**
 * What a merchant's request gives the platform calls made for it (http/request-context.ts).
 * A call without one is background work (billing runs, jobs, sync, webhooks).
 */
export type CallContext = {
  /** Client-clock time (ms) after which a call of this request is no longer sent. */
  deadline: number
  /** Aborted when the request is over (answered or the merchant went away). */
  signal: AbortSignal
  /**
   * The queue its calls wait in: a merchant's request is `interactive` (the default); a webhook
   * delivery is `background` (it keeps the merchants' reserve) but still has a deadline and an
   * end, so nothing is sent for a delivery the platform has already given up on.
   */
  lane?: 'interactive' | 'background'
}

const isInteractive = (call: CallContext | undefined): call is CallContext =>
  call !== undefined && call.lane !== 'background'

/**
 * Points background work leaves in the bucket for merchants: the most a single query may cost
 * on the platform (1,000). The contract detail read asks 683 points up front and an edit
 * (live read 75, draft create/update/commit 3 × 10, re-read 75) 180, so with background work
 * held above this level a merchant's detail read followed by an edit finds its points at once
 * instead of waiting for the refill (6.8 s for the detail alone at Standard's 100 points/s).
 * The reserve is a level, not a rate: background work still gets every point the restore rate
 * brings that merchants do not use, so a long billing run loses only the first 1,000 points of
 * its initial burst. Capped at half the bucket so background work always has a share.
 *
 * It is kept against what a background call really spends (its last actualQueryCost), not
 * what it asks up front: the platform holds the asked points only while it runs the query and
 * gives the difference back with the answer, so a sync page that asks 900 and takes 300 needs
 * 1,300 points, not 1,900, and a merchant arriving meanwhile waits at most for that answer.
 */
export const INTERACTIVE_RESERVE = 1_000
export const reserveFor = (bucket: number) => Math.min(INTERACTIVE_RESERVE, bucket / 2)

/** Merchant calls waiting per shop before the next one is answered busy at once. */
export const MAX_INTERACTIVE_WAITING = 20

/**
 * The client's estimate of the shop's bucket: `available` points at time `at` (ms), refilling
 * at `restoreRate` per second up to `maximum`. It is taken from each answer's throttleStatus
 * and debited locally when a request is admitted.
 */
type BucketEstimate = {
  available: number
  at: number
  restoreRate: number
  maximum: number
  basisSentAt: number
}

type Waiter = {
  operationName: string
  /** Read when the waiter is considered: a cost learnt while it waited counts. */
  cost: () => ExpectedCost
  call: CallContext | undefined
  resolve: (admitted: Admitted) => void
  reject: (error: Error) => void
  onAbort?: () => void
}

export type Admitted = { ticket: number; sentAt: number }

/**
 * What a call is expected to ask up front (`requested`) and to take in the end (`actual`).
 * `unknownAs`: set while nothing is learnt of the operation yet (its cost key): one such call
 * is sent at a time, and the others wait for its answer to tell the cost, so a dozen workers
 * starting a new operation at once do not all go out priced at 0.
 */
export type ExpectedCost = { requested: number; actual: number; unknownAs?: string }

export type AdmissionOptions = {
  now: () => number
  /** Resolves after `ms`, or early once `signal` aborts (the pump was woken). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  maxInteractiveWaiting?: number
  /** Adds the time spent waiting for the bucket (AdminClientStats.pacedMs). */
  onPaced: (ms: number) => void
}

export type Admission = {
  /** Resolves when the call may be sent, its requested cost debited; rejects PlatformBusyError. */
  admit(operationName: string, cost: () => ExpectedCost, call: CallContext | undefined): Promise<Admitted>
  /** The answer (or failure) of an admitted call: its throttleStatus resets the estimate. */
  settle(ticket: number, sentAt: number, status: ThrottleStatus | undefined): void
  /** Time of the last admission or answer; null while calls wait or are in flight. */
  idleSince(): number | null
}

/**
 * Admission to one shop's bucket, in two lanes. Merchant calls (a CallContext) are admitted
 * ahead of every waiting background call and may spend the whole bucket; background calls
 * wait until the estimate covers their cost and keeps the interactive reserve, earliest
 * deadline first (a webhook delivery's reads ahead of a billing run's queue), else FIFO. A merchant
 * call is never sent after its request's deadline or end, and at most `maxInteractiveWaiting`
 * of them wait per shop (the next is refused at once); background callers are already paced
 * by their own concurrency, so their queue is not bounded here.
 *
 * Points reserved by calls still in flight are subtracted from each new throttleStatus
 * (conservative: the platform may already have charged some of them). Until the first answer
 * tells the bucket, one call at a time is sent.
 */
export function createAdmission(opts: AdmissionOptions): Admission {
  const { now } = opts
  const maxWaiting = opts.maxInteractiveWaiting ?? MAX_INTERACTIVE_WAITING
  let estimate: BucketEstimate | null = null
  /** Points reserved by admitted calls whose answer has not arrived. */
  const inFlight = new Map<number, number>()
  /** Operations of unknown cost with a call in flight, by ticket. */
  const probes = new Map<number, string>()
  let nextTicket = 0
  const interactive: Waiter[] = []
  const background: Waiter[] = []
  let pumping = false
  let wake: (() => void) | null = null
  let lastActivity = now()

  const projected = (e: BucketEstimate, t: number) =>
    Math.min(e.maximum, e.available + (Math.max(0, t - e.at) / 1000) * e.restoreRate)

  function wakePump(): void {
    const resolve = wake
    wake = null
    resolve?.()
  }

  function admit(
    operationName: string,
    cost: () => ExpectedCost,
    call: CallContext | undefined,
  ): Promise<Admitted> {
    if (call) {
      if (call.signal.aborted) return Promise.reject(new PlatformBusyError(operationName, 'ended'))
      if (now() >= call.deadline) return Promise.reject(new PlatformBusyError(operationName, 'deadline'))
      if (isInteractive(call) && interactive.length >= maxWaiting) {
        return Promise.reject(new PlatformBusyError(operationName, 'queue-full'))
      }
    }
    return new Promise<Admitted>((resolve, reject) => {
      const waiter: Waiter = { operationName, cost, call, resolve, reject }
      if (call) {
        waiter.onAbort = () => drop(waiter, new PlatformBusyError(operationName, 'ended'))
        call.signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      ;(isInteractive(call) ? interactive : background).push(waiter)
      if (pumping) wakePump()
      else void pump()
    })
  }

  function unqueue(waiter: Waiter): boolean {
    const queue = isInteractive(waiter.call) ? interactive : background
    const index = queue.indexOf(waiter)
    if (index < 0) return false
    queue.splice(index, 1)
    if (waiter.onAbort) waiter.call!.signal.removeEventListener('abort', waiter.onAbort)
    return true
  }

  function drop(waiter: Waiter, error: PlatformBusyError): void {
    if (!unqueue(waiter)) return
    waiter.reject(error)
    wakePump()
  }

  /** 0: admit now; ms: wait for the refill; null: wait for an answer (bucket or cost unknown). */
  function waitFor(waiter: Waiter, t: number): number | null {
    if (!estimate) return inFlight.size === 0 ? 0 : null
    const { requested, actual, unknownAs } = waiter.cost()
    if (unknownAs !== undefined && [...probes.values()].includes(unknownAs)) return null
    const kept = isInteractive(waiter.call)
      ? requested
      : Math.max(requested, actual + reserveFor(estimate.maximum))
    // A cost above the whole bucket can never be covered: send it when the bucket is full.
    const needed = Math.min(kept, estimate.maximum)
    const available = projected(estimate, t)
    if (available >= needed) return 0
    return Math.ceil(((needed - available) / estimate.restoreRate) * 1000)
  }

  function admitNow(waiter: Waiter, t: number): void {
    unqueue(waiter)
    const { requested: cost, unknownAs } = waiter.cost()
    if (estimate) {
      estimate.available = projected(estimate, t) - cost
      estimate.at = t
    }
    const ticket = nextTicket++
    inFlight.set(ticket, cost)
    if (unknownAs !== undefined) probes.set(ticket, unknownAs)
    lastActivity = t
    waiter.resolve({ ticket, sentAt: t })
  }

  /** Calls whose deadline passed while waiting (merchants', deliveries'): answered busy, never sent. */
  function expire(t: number): number | undefined {
    let earliest: number | undefined
    for (const waiter of [...interactive, ...background]) {
      if (!waiter.call) continue
      const { deadline } = waiter.call
      if (t >= deadline) drop(waiter, new PlatformBusyError(waiter.operationName, 'deadline'))
      else earliest = Math.min(earliest ?? deadline, deadline)
    }
    return earliest
  }

  /**
   * The background waiter to admit next: the one with the earliest deadline (a webhook
   * delivery's read must be sent before the platform gives up on the delivery), then the
   * oldest (billing, syncs and jobs have none and keep their order).
   */
  function firstDue(queue: Waiter[]): Waiter | undefined {
    let first = queue[0]
    for (const waiter of queue) {
      if ((waiter.call?.deadline ?? Infinity) < (first?.call?.deadline ?? Infinity)) first = waiter
    }
    return first
  }

  /** One loop per client admits waiters in lane order; it sleeps until the head can go. */
  async function pump(): Promise<void> {
    pumping = true
    try {
      for (;;) {
        const t = now()
        const earliestDeadline = expire(t)
        const head = interactive[0] ?? firstDue(background)
        if (!head) return
        const waitMs = waitFor(head, t)
        if (waitMs === 0) {
          admitNow(head, t)
          continue
        }
        // Woken early by a new merchant call, an answer that moved the estimate, or a drop.
        const early = new AbortController()
        const woken = new Promise<void>((resolve) => {
          wake = () => {
            early.abort()
            resolve()
          }
        })
        const untilDeadline = earliestDeadline === undefined ? Infinity : earliestDeadline - t
        const sleepMs = Math.min(waitMs ?? Infinity, untilDeadline)
        await (sleepMs === Infinity ? woken : Promise.race([opts.sleep(sleepMs, early.signal), woken]))
        wake = null
        if (waitMs !== null) opts.onPaced(Math.max(0, now() - t))
      }
    } finally {
      pumping = false
    }
  }

  function settle(ticket: number, sentAt: number, status: ThrottleStatus | undefined): void {
    inFlight.delete(ticket)
    probes.delete(ticket)
    lastActivity = now()
    if (status && status.restoreRate > 0 && (!estimate || sentAt >= estimate.basisSentAt)) {
      let reserved = 0
      for (const points of inFlight.values()) reserved += points
      // The platform computed the status while handling the request, before the answer
      // arrived: dating it at the arrival under-estimates the refill, which is the safe side.
      estimate = {
        available: status.currentlyAvailable - reserved,
        at: now(),
        restoreRate: status.restoreRate,
        maximum: status.maximumAvailable,
        basisSentAt: sentAt,
      }
    }
    wakePump()
  }

  const idleSince = () =>
    interactive.length === 0 && background.length === 0 && inFlight.size === 0 ? lastActivity : null

  return { admit, settle, idleSince }
}

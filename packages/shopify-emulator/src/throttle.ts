/**
 * Per-shop leaky bucket, as the platform runs it for each app + shop pair: points drain by the
 * query's cost and refill at `restoreRate` per second up to `bucketSize`.
 */
export type ThrottleOptions = { restoreRate: number; bucketSize: number; enabled: boolean }

export const STANDARD_THROTTLE: ThrottleOptions = { restoreRate: 100, bucketSize: 2000, enabled: true }
/** A single query may cost at most this much, whatever the bucket holds. */
export const MAX_SINGLE_QUERY_COST = 1000

export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number }

export class LeakyBucket {
  private available: number
  private at: number

  constructor(
    private readonly opts: ThrottleOptions,
    now: number,
  ) {
    this.available = opts.bucketSize
    this.at = now
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.at) / 1000
    this.available = Math.min(this.opts.bucketSize, this.available + elapsed * this.opts.restoreRate)
    this.at = now
  }

  /** Takes `cost` points if the bucket holds them; false means the request is throttled. */
  take(cost: number, now: number): boolean {
    if (!this.opts.enabled) return true
    this.refill(now)
    if (cost > this.available) return false
    this.available -= cost
    return true
  }

  /**
   * Gives back what a query was charged beyond its actual cost; a negative refund (an answer that
   * cost more than was asked up front) takes the rest, and may leave the bucket in debt that the
   * restore rate pays off before anything else is admitted.
   */
  refund(points: number, now: number): void {
    if (!this.opts.enabled) return
    this.refill(now)
    this.available = Math.min(this.opts.bucketSize, this.available + points)
  }

  status(now: number): ThrottleStatus {
    if (this.opts.enabled) this.refill(now)
    return {
      maximumAvailable: this.opts.bucketSize,
      currentlyAvailable: Math.max(0, Math.floor(this.opts.enabled ? this.available : this.opts.bucketSize)),
      restoreRate: this.opts.restoreRate,
    }
  }
}

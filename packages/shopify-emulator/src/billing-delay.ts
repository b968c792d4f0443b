import { Rng } from './demo-data/prng.ts'

/**
 * How long a billing attempt stays processing (`ready: false`) before it settles and its
 * webhooks go out. A number is a fixed delay (tests use a few ms). A spread draws each attempt's
 * delay uniformly from [minMs, maxMs], from a generator seeded with `seed` (default: the
 * emulator's seed), so a bench that creates its attempts in the same order sees the same delays:
 * on the platform a charge goes through the payment gateway and settles seconds later, not at
 * once, and not all after the same time.
 */
export type BillingDelay = number | { minMs: number; maxMs: number; seed?: number }

/** Draws the delay of each new attempt, in creation order. */
export function billingDelaySampler(delay: BillingDelay | undefined, defaultSeed: number): () => number {
  if (delay === undefined) return () => 50
  if (typeof delay === 'number') return () => delay
  const { minMs, maxMs } = delay
  if (!(minMs >= 0 && maxMs >= minMs))
    throw new Error(`billing delay needs 0 ≤ minMs ≤ maxMs: ${minMs}, ${maxMs}`)
  const rng = new Rng(delay.seed ?? defaultSeed)
  return () => Math.round(minMs + rng.next() * (maxMs - minMs))
}

/**
 * What the client learnt of each operation's cost, per page size: the last
 * `requestedQueryCost` and `actualQueryCost` seen for an operation name and its `first`.
 *
 * A query's cost grows with the page it asks for (the platform prices a connection by its
 * `first`), so a size never sent before is estimated from the sizes already seen: the smallest
 * larger size learnt is an upper bound as it is; otherwise the largest smaller size, scaled up
 * by the ratio of the sizes (a connection's cost is a fixed part plus a part per item, so the
 * scaled figure is never below the real one). Only an operation never answered at any size is
 * unknown: the admission then sends one call of it at a time to learn it.
 */
export type LearntCost = { requested: number; actual: number }

export type CostMemory = {
  /** The learnt or estimated cost, or undefined when nothing of the operation is known. */
  estimate(operationName: string, first: number | undefined): LearntCost | undefined
  /** Records an answer's costs (either may be missing). */
  learn(operationName: string, first: number | undefined, requested?: number, actual?: number): void
}

export function createCostMemory(): CostMemory {
  /** operation name → page size (or -1 without one) → what its answers said */
  const known = new Map<string, Map<number, LearntCost>>()
  const sizeOf = (first: number | undefined) => (typeof first === 'number' ? first : -1)

  return {
    estimate(operationName, first) {
      const sizes = known.get(operationName)
      if (!sizes) return undefined
      const size = sizeOf(first)
      const exact = sizes.get(size)
      if (exact) return exact
      if (size < 0) return undefined
      let above: [number, LearntCost] | undefined
      let below: [number, LearntCost] | undefined
      for (const entry of sizes) {
        const [s] = entry
        if (s < 0) continue
        if (s > size && (!above || s < above[0])) above = entry
        if (s < size && (!below || s > below[0])) below = entry
      }
      if (above) return above[1]
      if (!below) return undefined
      const scale = size / Math.max(1, below[0])
      return {
        requested: Math.ceil(below[1].requested * scale),
        actual: Math.ceil(below[1].actual * scale),
      }
    },
    learn(operationName, first, requested, actual) {
      let sizes = known.get(operationName)
      if (!sizes) {
        sizes = new Map()
        known.set(operationName, sizes)
      }
      const size = sizeOf(first)
      const before = sizes.get(size)
      const req = typeof requested === 'number' && requested > 0 ? requested : before?.requested
      if (req === undefined) return
      const act = typeof actual === 'number' ? actual : (before?.actual ?? req)
      sizes.set(size, { requested: req, actual: act })
    },
  }
}

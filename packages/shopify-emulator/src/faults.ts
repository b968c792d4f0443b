import { Rng } from './demo-data/prng.ts'
import { parseGid } from './gid.ts'

/**
 * Misbehaviour on demand, for tests and benchmarks. Rates are probabilities (0–1) drawn from one
 * seeded generator, so a run with the same seed and the same request order fails the same way.
 */
export type FaultSettings = {
  /** Share of Admin API requests answered with HTTP 500/502/503. */
  errorRate: number
  /** The next N Admin API requests are THROTTLED whatever the bucket holds. */
  throttleNext: number
  /** Added before every Admin API response (GraphQL and the token exchange). */
  latencyMs: number
  /** Share of webhook events never delivered. */
  drop: number
  /** Share of webhook events delivered twice with the same X-Shopify-Webhook-Id. */
  duplicate: number
  /** Share of webhook events held back and delivered after the next event of the shop. */
  reorder: number
  seed: number
}

export const NO_FAULTS: FaultSettings = {
  errorRate: 0,
  throttleNext: 0,
  latencyMs: 0,
  drop: 0,
  duplicate: 0,
  reorder: 0,
  seed: 1,
}

/** Billing failure codes the knobs can force (enum SubscriptionBillingAttemptErrorCode). */
export const BILLING_ERROR_MESSAGES: Record<string, string> = {
  INSUFFICIENT_FUNDS: 'Your card has insufficient funds.',
  EXPIRED_PAYMENT_METHOD: 'Your card has expired.',
  PAYMENT_METHOD_DECLINED: 'Your card was declined.',
  AUTHENTICATION_ERROR: 'The card requires authentication (3-D Secure).',
  INSUFFICIENT_INVENTORY: 'Insufficient inventory.',
  INVENTORY_ALLOCATIONS_NOT_FOUND: 'Inventory allocations not found.',
  PAYMENT_METHOD_NOT_FOUND: 'The payment method was not found.',
}

const RATE_KEYS = ['errorRate', 'drop', 'duplicate', 'reorder'] as const

/** The user error an injected mutation failure answers with (`{ code field message }`). */
export type InjectedUserError = { code: string | null; field: string[] | null; message: string }

const key = (shop: string, id: number) => `${shop}#${id}`

/** A customer or payment method given as GID or number (numbers are taken as customer ids). */
function target(id: string | number): { type: 'Customer' | 'CustomerPaymentMethod'; id: number } {
  if (typeof id === 'number') return { type: 'Customer', id }
  const parsed = parseGid(id)
  if (!parsed || (parsed.type !== 'Customer' && parsed.type !== 'CustomerPaymentMethod'))
    throw new Error(`expected a Customer or CustomerPaymentMethod id, got ${id}`)
  return { type: parsed.type, id: parsed.id }
}

export class Faults {
  private current: FaultSettings = { ...NO_FAULTS }
  private rng = new Rng(NO_FAULTS.seed)
  private readonly failingCustomers = new Map<string, string>()
  private readonly failingMethods = new Map<string, string>()
  private readonly outOfStockVariants = new Set<string>()
  /** Customers and payment methods whose charges the issuer challenges (3-D Secure). */
  private readonly challenged = new Set<string>()
  private readonly failingMutations = new Map<string, { error: InjectedUserError; left: number }>()
  private readonly holds = new Map<string, { passed: number; after: number; waiting: Array<() => void> }>()

  get settings(): Readonly<FaultSettings> {
    return this.current
  }

  /** Changes some knobs; a `seed` restarts the random sequence. Throws on out-of-range values. */
  set(partial: Partial<FaultSettings>): void {
    for (const k of RATE_KEYS) {
      const v = partial[k]
      if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1))
        throw new Error(`${k} must be a number between 0 and 1`)
    }
    for (const k of ['throttleNext', 'latencyMs', 'seed'] as const) {
      const v = partial[k]
      if (v !== undefined && !(Number.isInteger(v) && v >= 0))
        throw new Error(`${k} must be a non-negative integer`)
    }
    this.current = { ...this.current, ...partial }
    if (partial.seed !== undefined) this.rng = new Rng(partial.seed)
  }

  /** Back to a well-behaved platform (payment and stock knobs included). */
  reset(): void {
    this.current = { ...NO_FAULTS }
    this.rng = new Rng(NO_FAULTS.seed)
    this.failingCustomers.clear()
    this.failingMethods.clear()
    this.outOfStockVariants.clear()
    this.challenged.clear()
    this.failingMutations.clear()
    this.releaseHolds()
  }

  /**
   * Paces a test: the first `after` calls of the root Mutation field `field` (any shop) run, the
   * next ones wait, unanswered, until releaseHolds(). A run of work is then caught half-way for
   * as long as the test needs, instead of hoping to look at the right moment.
   */
  holdMutation(field: string, after: number): void {
    if (!(Number.isInteger(after) && after >= 0)) throw new Error('after must be a non-negative integer')
    this.holds.set(field, { passed: 0, after, waiting: [] })
  }

  /** Lets every held call go on, and holds no more. */
  releaseHolds(): void {
    for (const hold of this.holds.values()) for (const go of hold.waiting) go()
    this.holds.clear()
  }

  /** Calls waiting on a hold now. */
  get held(): number {
    let n = 0
    for (const hold of this.holds.values()) n += hold.waiting.length
    return n
  }

  /** Whether any hold is set (the server only looks at a request's fields then). */
  get holding(): boolean {
    return this.holds.size > 0
  }

  /** Resolves when the calls of these root Mutation fields may run. */
  async gate(fields: readonly string[]): Promise<void> {
    for (const field of fields) {
      const hold = this.holds.get(field)
      if (!hold) continue
      if (hold.passed < hold.after) {
        hold.passed += 1
        continue
      }
      await new Promise<void>((go) => hold.waiting.push(go))
    }
  }

  /**
   * The next `times` calls of the root Mutation field `field` (`subscriptionContractPause`), in
   * any shop, change nothing and answer a payload whose fields are all null but `userErrors`,
   * which holds `userError` alone. Its `code` must be a value of that payload's error code enum.
   */
  failMutation(
    field: string,
    userError: { code?: string; field?: string[]; message?: string } = {},
    times = 1,
  ): void {
    if (!(Number.isInteger(times) && times >= 1)) throw new Error('times must be a positive integer')
    const error: InjectedUserError = {
      code: userError.code ?? null,
      field: userError.field ?? null,
      message: userError.message ?? 'Injected failure',
    }
    this.failingMutations.set(field, { error, left: times })
  }

  /** Consumes one injected failure of the Mutation field, if any are left. */
  takeMutationFailure(field: string): InjectedUserError | null {
    const failing = this.failingMutations.get(field)
    if (!failing) return null
    failing.left -= 1
    if (failing.left <= 0) this.failingMutations.delete(field)
    return failing.error
  }

  /** Every billing attempt charged to this customer (or payment method) fails with `code`. */
  failPayment(shop: string, customerOrMethod: string | number, code = 'INSUFFICIENT_FUNDS'): void {
    const t = target(customerOrMethod)
    const map = t.type === 'Customer' ? this.failingCustomers : this.failingMethods
    map.set(key(shop, t.id), code)
  }

  clearPayment(shop: string, customerOrMethod: string | number): void {
    const t = target(customerOrMethod)
    ;(t.type === 'Customer' ? this.failingCustomers : this.failingMethods).delete(key(shop, t.id))
  }

  /**
   * Every billing attempt charged to this customer (or payment method) is challenged by the
   * issuer (EMV 3-D Secure), as a card flagged `requiresAuthentication` is; `false` clears it.
   */
  challengePayment(shop: string, customerOrMethod: string | number, isChallenged = true): void {
    const t = target(customerOrMethod)
    const k = `${t.type}:${key(shop, t.id)}`
    if (isChallenged) this.challenged.add(k)
    else this.challenged.delete(k)
  }

  isChallenged(shop: string, customerId: number, paymentMethodId: number | null): boolean {
    return (
      this.challenged.has(`Customer:${key(shop, customerId)}`) ||
      (paymentMethodId !== null && this.challenged.has(`CustomerPaymentMethod:${key(shop, paymentMethodId)}`))
    )
  }

  /** Billing attempts for contracts with this variant fail on inventory. */
  outOfStock(shop: string, variantId: string | number, isOut = true): void {
    const id = typeof variantId === 'number' ? variantId : parseGid(variantId)?.id
    if (id === undefined) throw new Error(`expected a ProductVariant id, got ${variantId}`)
    if (isOut) this.outOfStockVariants.add(key(shop, id))
    else this.outOfStockVariants.delete(key(shop, id))
  }

  paymentFailure(shop: string, customerId: number, paymentMethodId: number | null): string | null {
    const byMethod =
      paymentMethodId === null ? undefined : this.failingMethods.get(key(shop, paymentMethodId))
    return byMethod ?? this.failingCustomers.get(key(shop, customerId)) ?? null
  }

  isOutOfStock(shop: string, variantId: number): boolean {
    return this.outOfStockVariants.has(key(shop, variantId))
  }

  /** True with probability `rate`; draws nothing when the rate is 0 so unrelated knobs keep their sequence. */
  roll(rate: number): boolean {
    return rate > 0 && this.rng.next() < rate
  }

  /** The HTTP status to fail this request with, or null. */
  httpFailure(): 500 | 502 | 503 | null {
    if (!this.roll(this.current.errorRate)) return null
    return this.rng.pick([500, 502, 503] as const)
  }

  /** Consumes one forced THROTTLED answer, if any are left. */
  takeThrottle(): boolean {
    if (this.current.throttleNext <= 0) return false
    this.current = { ...this.current, throttleNext: this.current.throttleNext - 1 }
    return true
  }
}

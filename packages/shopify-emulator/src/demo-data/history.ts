import type { ShopState } from '../records.ts'
import { nextId } from '../store.ts'
import { failureCodes } from './failures.ts'

/** Sorts indices 0..n-1 by time (ties by index) without allocating an object per entry. */
function chronological(times: readonly number[]): Uint32Array {
  const n = times.length
  const order = new Uint32Array(n)
  if (n < 2 ** 22) {
    // seconds (< 2^31) * 2^22 + index (< 2^22) fits a double exactly: a plain numeric sort.
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) keys[i] = Math.floor(times[i]! / 1000) * 2 ** 22 + i
    keys.sort()
    for (let i = 0; i < n; i++) order[i] = keys[i]! % 2 ** 22
    return order
  }
  for (let i = 0; i < n; i++) order[i] = i
  return order.sort((a, b) => times[a]! - times[b]! || a - b)
}

/**
 * Orders and billing attempts queued by contract generation. Ids are handed out only at the end,
 * in time order, so order and attempt ids grow with time as they do on the platform.
 * Parallel number arrays instead of objects keep 100,000-contract shops cheap.
 */
export class History {
  readonly orderTime: number[] = []
  private readonly orderContract: number[] = []
  private readonly orderTotal: number[] = []
  private readonly attemptTime: number[] = []
  private readonly attemptContract: number[] = []
  private readonly attemptOrder: number[] = []
  private readonly attemptFailure: number[] = []

  queueOrder(at: number, contractIndex: number, total: number): number {
    this.orderTime.push(Math.floor(at / 1000) * 1000)
    this.orderContract.push(contractIndex)
    this.orderTotal.push(total)
    return this.orderTime.length - 1
  }

  queueAttempt(at: number, contractIndex: number, pendingOrder: number, failure: number): void {
    this.attemptTime.push(Math.floor(at / 1000) * 1000)
    this.attemptContract.push(contractIndex)
    this.attemptOrder.push(pendingOrder)
    this.attemptFailure.push(failure)
  }

  /** Creates the records and links them to contracts and customers. */
  finalize(shop: ShopState, customerIndexOf: readonly number[]): void {
    const orderIds = new Float64Array(this.orderTime.length)
    const byOrder = chronological(this.orderTime)
    const lastOrderAt = new Float64Array(shop.customers.length)
    for (let rank = 0; rank < byOrder.length; rank++) {
      const p = byOrder[rank]!
      const contract = shop.contracts[this.orderContract[p]!]!
      const customerIndex = customerIndexOf[this.orderContract[p]!]!
      const customer = shop.customers[customerIndex]!
      const createdAt = this.orderTime[p]!
      const id = nextId(shop, 'Order')
      orderIds[p] = id
      shop.orders.push({
        id,
        number: 1001 + rank,
        createdAt,
        updatedAt: createdAt,
        cancelledAt: null,
        test: false,
        customerId: customer.id,
        contractId: contract.id,
        totalPriceSet: this.orderTotal[p]!,
      })
      contract.orderIds.push(id)
      customer.numberOfOrders++
      lastOrderAt[customerIndex] = createdAt
    }
    for (const contract of shop.contracts) {
      // generateContract stored the pending index of the checkout order; swap in the real id.
      if (contract.originOrderId !== null) contract.originOrderId = orderIds[contract.originOrderId]!
    }
    for (const [i, customer] of shop.customers.entries()) {
      if (customer.numberOfOrders > 0) customer.tags = ['定期購入者']
      customer.updatedAt = Math.max(customer.createdAt, lastOrderAt[i]!)
    }
    const byAttempt = chronological(this.attemptTime)
    for (const p of byAttempt) {
      const contract = shop.contracts[this.attemptContract[p]!]!
      const createdAt = this.attemptTime[p]!
      const f = this.attemptFailure[p]!
      const pending = this.attemptOrder[p]!
      const id = nextId(shop, 'SubscriptionBillingAttempt')
      shop.billingAttempts.push({
        id,
        contractId: contract.id,
        createdAt,
        completedAt: createdAt + 20_000,
        originTime: null,
        ready: true,
        errorCode: f < 0 ? null : failureCodes[f]![0],
        errorMessage: f < 0 ? null : failureCodes[f]![1],
        idempotencyKey: null,
        orderId: pending < 0 ? null : orderIds[pending]!,
      })
      contract.billingAttemptIds.push(id)
    }
  }
}

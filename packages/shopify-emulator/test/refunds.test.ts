import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { validateAgainstRealSchema } from './support/conformance.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'

const REFUND_CREATE = /* GraphQL */ `
  mutation RefundCreate($input: RefundInput!) {
    refundCreate(input: $input) {
      refund { id createdAt note totalRefundedSet { shopMoney { amount currencyCode } } order { id } }
      order { id displayFinancialStatus totalRefundedSet { shopMoney { amount } } }
      userErrors { field message }
    }
  }
`

const ORDER = /* GraphQL */ `
  query Order($id: ID!) {
    order(id: $id) {
      displayFinancialStatus
      totalPriceSet { shopMoney { amount } }
      totalRefundedSet { shopMoney { amount currencyCode } }
      refunds(first: 10) { id legacyResourceId totalRefundedSet { shopMoney { amount } } }
    }
  }
`

describe('refundCreate (2025-04): refunds of an order, its refunded total and status, and their webhooks', () => {
  let emulator: Emulator
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  const shop = () => emulator.store.shop(SHOP)!
  // Orders of contracts, each its own: a fresh one per test.
  let next = 0
  const anOrder = () => shop().orders.filter((o) => o.contractId !== null && o.cancelledAt === null)[next++]!
  const refund = (orderGid: string, amount: string, patch: Record<string, unknown> = {}) =>
    gql(emulator, REFUND_CREATE, {
      input: {
        orderId: orderGid,
        note: '商品破損のため',
        transactions: [{ orderId: orderGid, amount, gateway: 'shopify_payments', kind: 'REFUND' }],
        ...patch,
      },
    })

  beforeAll(async () => {
    emulator = await smallEmulator()
    receiver = await webhookReceiver()
    emulator.webhooks.subscribe(SHOP, 'refunds/create', receiver.url)
    emulator.webhooks.subscribe(SHOP, 'orders/updated', receiver.url)
  })
  afterAll(async () => {
    await emulator.close()
    await receiver.close()
  })

  it('the documents are valid against the real schema', () => {
    expect(validateAgainstRealSchema(REFUND_CREATE)).toEqual([])
    expect(validateAgainstRealSchema(ORDER)).toEqual([])
  })

  it('a partial refund: PARTIALLY_REFUNDED, totalRefundedSet, the refund listed; then a full one: REFUNDED', async () => {
    const order = anOrder()
    const id = toGid('Order', order.id)
    const before = await gql(emulator, ORDER, { id })
    expect(before.order).toMatchObject({ displayFinancialStatus: 'PAID', refunds: [] })
    expect(Number(before.order.totalRefundedSet.shopMoney.amount)).toBe(0)

    const data = await refund(id, '500')
    expect(data.refundCreate.userErrors).toEqual([])
    expect(data.refundCreate.refund).toMatchObject({ note: '商品破損のため', order: { id } })
    expect(Number(data.refundCreate.refund.totalRefundedSet.shopMoney.amount)).toBe(500)
    expect(data.refundCreate.order.displayFinancialStatus).toBe('PARTIALLY_REFUNDED')

    const rest = String(order.totalPriceSet - 500)
    expect((await refund(id, rest)).refundCreate.userErrors).toEqual([])
    const after = await gql(emulator, ORDER, { id })
    expect(after.order.displayFinancialStatus).toBe('REFUNDED')
    expect(Number(after.order.totalRefundedSet.shopMoney.amount)).toBe(order.totalPriceSet)
    expect(after.order.totalRefundedSet.shopMoney.currencyCode).toBe('JPY')
    expect(
      after.order.refunds.map((r: { totalRefundedSet: { shopMoney: { amount: string } } }) =>
        Number(r.totalRefundedSet.shopMoney.amount),
      ),
    ).toEqual([500, order.totalPriceSet - 500])
  })

  it('refuses more than was paid (counting earlier refunds), and changes nothing', async () => {
    const order = anOrder()
    const id = toGid('Order', order.id)
    await refund(id, '100')
    const over = await refund(id, String(order.totalPriceSet))
    expect(over.refundCreate).toMatchObject({ refund: null, order: null })
    expect(over.refundCreate.userErrors).toEqual([
      {
        field: ['transactions'],
        message: `Refund amount (${order.totalPriceSet} JPY) is greater than the net payment received (${order.totalPriceSet - 100} JPY)`,
      },
    ])
    expect(order.refunds).toHaveLength(1)
  })

  it('refuses an unknown order, a non-refund transaction, another order’s transaction, a bad amount, a foreign currency', async () => {
    const order = anOrder()
    const id = toGid('Order', order.id)
    const unknown = await refund(toGid('Order', 1), '100')
    expect(unknown.refundCreate.userErrors).toEqual([{ field: ['orderId'], message: 'Order does not exist' }])
    const wrong = await gql(emulator, REFUND_CREATE, {
      input: {
        orderId: id,
        currency: 'USD',
        transactions: [
          { orderId: id, amount: '100', gateway: 'manual', kind: 'SALE' },
          { orderId: toGid('Order', 1), amount: '0', gateway: 'manual', kind: 'REFUND' },
          { orderId: id, amount: '10.5', gateway: 'manual', kind: 'REFUND' },
        ],
      },
    })
    expect(wrong.refundCreate.userErrors.map((e: { field: string[] }) => e.field)).toEqual([
      ['currency'],
      ['transactions', '0', 'kind'],
      ['transactions', '1', 'orderId'],
      ['transactions', '1', 'amount'],
      ['transactions', '2', 'amount'],
    ])
    const none = await gql(emulator, REFUND_CREATE, { input: { orderId: id } })
    expect(none.refundCreate.userErrors).toHaveLength(1)
    const line = await refund(id, '100', {
      refundLineItems: [{ lineItemId: toGid('LineItem', order.id * 10 + 9), quantity: 1 }],
    })
    expect(line.refundCreate.userErrors).toEqual([
      { field: ['refundLineItems', '0', 'lineItemId'], message: 'Line item does not exist' },
    ])
    expect(order.refunds ?? []).toEqual([])
  })

  it('sends refunds/create (the REST refund: order_id, its transaction) and orders/updated (financial status)', async () => {
    const order = anOrder()
    const id = toGid('Order', order.id)
    await emulator.idle()
    receiver.received.length = 0
    const data = await refund(id, '300', {
      refundLineItems: [{ lineItemId: toGid('LineItem', order.id * 10), quantity: 1, restockType: 'RETURN' }],
    })
    await emulator.idle()
    expect(receiver.topics().sort()).toEqual(['orders/updated', 'refunds/create'])
    const byTopic = (t: string) =>
      JSON.parse(receiver.received.find((r) => r.headers['x-shopify-topic'] === t)!.body)
    const refundBody = byTopic('refunds/create')
    expect(refundBody).toMatchObject({
      admin_graphql_api_id: data.refundCreate.refund.id,
      order_id: order.id,
      restock: true,
      refund_line_items: [{ line_item_id: order.id * 10, quantity: 1, restock_type: 'return' }],
      transactions: [
        { kind: 'refund', status: 'success', amount: '300.00', currency: 'JPY', order_id: order.id },
      ],
    })
    expect(byTopic('orders/updated')).toMatchObject({
      admin_graphql_api_id: id,
      financial_status: 'partially_refunded',
      current_total_price: (order.totalPriceSet - 300).toFixed(2),
      refunds: [{ admin_graphql_api_id: data.refundCreate.refund.id }],
    })
  })
})

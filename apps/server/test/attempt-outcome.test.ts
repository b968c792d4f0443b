import { describe, expect, it } from 'vitest'
import {
  type AttemptOutcomeFields,
  attemptOutcome,
  UNKNOWN_FAILURE,
} from '../src/platform/attempt-outcome.ts'

type Order = { id: string }
const ORDER: Order = { id: 'gid://shopify/Order/5900000000001' }
const URL_3DS = 'https://teiki-demo.myshopify.com/3ds/90000000001/abc'

const base: AttemptOutcomeFields<Order> = {
  ready: true,
  errorCode: null,
  errorMessage: null,
  order: null,
  nextActionUrl: null,
}

describe('the shapes the platform reports', () => {
  it.each<[string, AttemptOutcomeFields<Order>, ReturnType<typeof attemptOutcome<Order>>]>([
    ['just created: not ready', { ...base, ready: false }, { kind: 'pending' }],
    ['charged: an order', { ...base, order: ORDER }, { kind: 'success', order: ORDER }],
    [
      'declined',
      { ...base, errorCode: 'PAYMENT_METHOD_DECLINED', errorMessage: 'Your card was declined.' },
      { kind: 'failed', code: 'PAYMENT_METHOD_DECLINED', message: 'Your card was declined.' },
    ],
    [
      'challenged: ready, a URL, nothing else',
      { ...base, nextActionUrl: URL_3DS },
      { kind: 'challenged', nextActionUrl: URL_3DS },
    ],
    [
      'a challenge the customer failed keeps its URL: the error wins',
      { ...base, nextActionUrl: URL_3DS, errorCode: 'AUTHENTICATION_ERROR', errorMessage: 'auth' },
      { kind: 'failed', code: 'AUTHENTICATION_ERROR', message: 'auth' },
    ],
    [
      'a challenge the customer completed keeps its URL: the order wins',
      { ...base, nextActionUrl: URL_3DS, order: ORDER },
      { kind: 'success', order: ORDER },
    ],
    [
      'an error only in processingError (the 2025-01 replacement of errorCode)',
      { ...base, processingError: { code: 'INSUFFICIENT_INVENTORY', message: 'Insufficient inventory.' } },
      { kind: 'failed', code: 'INSUFFICIENT_INVENTORY', message: 'Insufficient inventory.' },
    ],
    [
      'ready with nothing: a failure of unknown cause',
      base,
      { kind: 'failed', code: UNKNOWN_FAILURE, message: '' },
    ],
    [
      'documents that do not select nextActionUrl',
      { ready: true, errorCode: null, errorMessage: null, order: ORDER },
      { kind: 'success', order: ORDER },
    ],
  ])('%s', (_name, fields, expected) => {
    expect(attemptOutcome(fields)).toEqual(expected)
  })
})

describe('every combination of the deprecated fields', () => {
  // Each field's values, absent and empty included: 2 × 2 × 3 × 2 × 4 × 3 = 288 combinations.
  const readies = [false, true]
  const orders = [null, ORDER]
  const codes = [null, '', 'INSUFFICIENT_FUNDS']
  const messages = [null, 'Your card has insufficient funds.']
  const urls = [undefined, null, '', URL_3DS]
  const processing = [undefined, null, { code: 'EXPIRED_PAYMENT_METHOD', message: 'Your card has expired.' }]
  const all: AttemptOutcomeFields<Order>[] = []
  for (const ready of readies)
    for (const order of orders)
      for (const errorCode of codes)
        for (const errorMessage of messages)
          for (const nextActionUrl of urls)
            for (const processingError of processing)
              all.push({ ready, order, errorCode, errorMessage, nextActionUrl, processingError })

  it('covers 288 combinations, each one outcome of the four kinds', () => {
    expect(all).toHaveLength(288)
    const kinds = new Set(all.map((f) => attemptOutcome(f).kind))
    expect([...kinds].sort()).toEqual(['challenged', 'failed', 'pending', 'success'])
  })

  it.each(all.map((f) => [JSON.stringify(f), f] as const))('%s', (_name, f) => {
    const outcome = attemptOutcome(f)
    // The rules, stated field by field rather than as the function's if-chain.
    const code = f.errorCode || f.processingError?.code || null
    if (!f.ready) {
      expect(outcome).toEqual({ kind: 'pending' })
    } else if (f.order) {
      expect(outcome).toEqual({ kind: 'success', order: f.order })
    } else if (code) {
      expect(outcome).toEqual({
        kind: 'failed',
        code,
        message: f.errorMessage ?? f.processingError?.message ?? '',
      })
    } else if (f.nextActionUrl) {
      expect(outcome).toEqual({ kind: 'challenged', nextActionUrl: f.nextActionUrl })
    } else {
      expect(outcome).toEqual({ kind: 'failed', code: UNKNOWN_FAILURE, message: f.errorMessage ?? '' })
    }
  })
})

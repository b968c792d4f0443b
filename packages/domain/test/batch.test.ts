import { describe, expect, it } from 'vitest'
import {
  BATCH_REASONS,
  type BatchContract,
  batchPercent,
  moveDateStep,
  removeStep,
  swapStep,
} from '../src/index.ts'

const line = (id: string, variantId: string | null, sellingPlanId: string | null = '701') => ({
  id,
  variantId,
  sellingPlanId,
})
const contract = (patch: Partial<BatchContract> = {}): BatchContract => ({
  status: 'ACTIVE',
  nextBillingDate: '2026-12-09T15:30:00Z', // 2026-12-10 0:30 in Japan
  lines: [line('L1', '11'), line('L2', '22')],
  ...patch,
})
const sells = (...plans: string[]) => ({ availableForSale: true, sellingPlanIds: new Set(plans) })

describe('swapStep (variant swap, issue 17)', () => {
  const swap = { from: '11', to: '33', attempted: false }
  it.each<[string, BatchContract, ReturnType<typeof sells>, ReturnType<typeof swapStep>]>([
    [
      'applies to the line carrying the old variant',
      contract(),
      sells('701'),
      { kind: 'apply', lineIds: ['L1'] },
    ],
    [
      'every line carrying it (two lines, one draft)',
      contract({ lines: [line('L1', '11'), line('L2', '11')] }),
      sells('701'),
      { kind: 'apply', lineIds: ['L1', 'L2'] },
    ],
    [
      'a line without a plan is not judged by plan',
      contract({ lines: [line('L1', '11', null)] }),
      sells(),
      { kind: 'apply', lineIds: ['L1'] },
    ],
    [
      'cancelled',
      contract({ status: 'CANCELLED' }),
      sells('701'),
      { kind: 'skip', reason: BATCH_REASONS.ended('CANCELLED') },
    ],
    [
      'expired',
      contract({ status: 'EXPIRED' }),
      sells('701'),
      { kind: 'skip', reason: BATCH_REASONS.ended('EXPIRED') },
    ],
    [
      'paused is still changed',
      contract({ status: 'PAUSED' }),
      sells('701'),
      { kind: 'apply', lineIds: ['L1'] },
    ],
    [
      'new variant out of stock',
      contract(),
      { availableForSale: false, sellingPlanIds: new Set(['701']) },
      { kind: 'skip', reason: BATCH_REASONS.outOfStock },
    ],
    [
      'line on a plan the new variant is not sold with',
      contract(),
      sells('702'),
      { kind: 'skip', reason: BATCH_REASONS.notInPlan },
    ],
    [
      'old variant gone, new not there',
      contract({ lines: [line('L2', '22')] }),
      sells('701'),
      { kind: 'skip', reason: BATCH_REASONS.noLongerHas },
    ],
    [
      'already on the new variant, not by this batch',
      contract({ lines: [line('L1', '33'), line('L2', '22')] }),
      sells('701'),
      { kind: 'skip', reason: BATCH_REASONS.alreadySwapped },
    ],
  ])('%s', (_name, c, variant, expected) => {
    expect(swapStep(c, swap, variant)).toEqual(expected)
  })

  it('a contract this batch asked for and already carrying the new variant is changed, not swapped again', () => {
    const after = contract({ lines: [line('L1', '33'), line('L2', '22')] })
    expect(swapStep(after, { ...swap, attempted: true }, sells('701'))).toEqual({ kind: 'changed' })
    // Still carrying the old one after an attempt (the commit never happened): applied again.
    expect(swapStep(contract(), { ...swap, attempted: true }, sells('701'))).toEqual({
      kind: 'apply',
      lineIds: ['L1'],
    })
  })
})

describe('removeStep (variant removal)', () => {
  it('removes the lines carrying the variant', () => {
    expect(removeStep(contract(), { variantId: '11', attempted: false })).toEqual({
      kind: 'apply',
      lineIds: ['L1'],
    })
  })
  it('never removes the last line (nor all lines at once)', () => {
    const only = contract({ lines: [line('L1', '11'), line('L2', '11')] })
    expect(removeStep(only, { variantId: '11', attempted: false })).toEqual({
      kind: 'skip',
      reason: BATCH_REASONS.lastLine,
    })
  })
  it('gone: changed after an attempt, skipped otherwise', () => {
    const after = contract({ lines: [line('L2', '22')] })
    expect(removeStep(after, { variantId: '11', attempted: true })).toEqual({ kind: 'changed' })
    expect(removeStep(after, { variantId: '11', attempted: false })).toEqual({
      kind: 'skip',
      reason: BATCH_REASONS.noLongerHas,
    })
  })
  it('ended contracts are skipped', () => {
    expect(removeStep(contract({ status: 'CANCELLED' }), { variantId: '11', attempted: false }).kind).toBe(
      'skip',
    )
  })
})

describe('moveDateStep (next billing date, Japan days whatever TZ the server runs in)', () => {
  const move = { from: '2026-12-10', to: '2026-12-14', attempted: false, timeZone: 'Asia/Tokyo' }
  it('moves a contract billed on the from-day (15:30Z is the next day in Japan)', () => {
    expect(moveDateStep(contract(), move)).toEqual({ kind: 'apply', lineIds: [] })
  })
  it('14:59:59Z is still the day before in Japan: not on the from-day', () => {
    expect(moveDateStep(contract({ nextBillingDate: '2026-12-09T14:59:59Z' }), move)).toEqual({
      kind: 'skip',
      reason: BATCH_REASONS.dateMoved,
    })
  })
  it('already on the to-day: changed after an attempt, skipped otherwise', () => {
    const moved = contract({ nextBillingDate: '2026-12-13T15:30:00Z' })
    expect(moveDateStep(moved, { ...move, attempted: true })).toEqual({ kind: 'changed' })
    expect(moveDateStep(moved, move)).toEqual({ kind: 'skip', reason: BATCH_REASONS.alreadyMoved })
  })
  it('no billing date, or ended', () => {
    expect(moveDateStep(contract({ nextBillingDate: null }), move).kind).toBe('skip')
    expect(moveDateStep(contract({ status: 'EXPIRED' }), move).kind).toBe('skip')
  })
})

describe('batchPercent', () => {
  it.each([
    [{ total: 0, changed: 0, skipped: 0, failed: 0 }, 0], // nothing known yet
    [{ total: 3, changed: 1, skipped: 0, failed: 0 }, 33], // floored
    [{ total: 3, changed: 1, skipped: 1, failed: 1 }, 100],
    [{ total: 10_000, changed: 9_999, skipped: 0, failed: 0 }, 99], // never 100 before the last
  ])('%o → %i', (counts, percent) => {
    expect(batchPercent(counts)).toBe(percent)
  })
})

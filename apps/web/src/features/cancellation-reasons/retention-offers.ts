import type { RetentionOfferBody, RetentionOffers } from '@teiki/contract'
import { offerProblem } from '@teiki/domain'
import { api, errorMessage } from '../../app/api.ts'
import { setCached } from '../../app/use-api.ts'

/** GET /retention-offers over all time (the card shows no period): one cache key for load and save. */
export const OFFERS_INPUT = { query: {} }

export type OfferKind = 'none' | RetentionOfferBody['kind']
export type OfferRow = RetentionOffers['reasons'][number]

/** The kinds as the merchant picks them, in this order. */
export const OFFER_KIND_OPTIONS: Array<{ value: OfferKind; label: string }> = [
  { value: 'none', label: 'なし' },
  { value: 'skip', label: '次回のお届けをスキップ' },
  { value: 'pause', label: 'お休み（1〜3回）' },
  { value: 'percent', label: '割引率（%）と回数' },
  { value: 'amount', label: '割引額（円）と回数' },
  { value: 'swap', label: '商品の変更（バリエーションID）' },
]

/** A reason's offer as edited: every kind's fields as typed, so switching kinds loses nothing. */
export type OfferDraft = {
  kind: OfferKind
  cycles: string
  percent: string
  amount: string
  orders: string
  variantId: string
}

export function toOfferDraft(offer: RetentionOfferBody | null): OfferDraft {
  const draft: OfferDraft = {
    kind: 'none',
    cycles: '1',
    percent: '10',
    amount: '500',
    orders: '1',
    variantId: '',
  }
  if (!offer) return draft
  switch (offer.kind) {
    case 'skip':
      return { ...draft, kind: 'skip' }
    case 'pause':
      return { ...draft, kind: 'pause', cycles: String(offer.cycles) }
    case 'percent':
      return { ...draft, kind: 'percent', percent: String(offer.percent), orders: String(offer.orders) }
    case 'amount':
      return { ...draft, kind: 'amount', amount: String(offer.amount), orders: String(offer.orders) }
    case 'swap':
      return { ...draft, kind: 'swap', variantId: offer.variantId }
  }
}

const whole = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()))

/** The draft's offer without a check (null for なし); a swap's title is the server's to fill. */
function draftOffer(d: OfferDraft): RetentionOfferBody | null {
  switch (d.kind) {
    case 'none':
      return null
    case 'skip':
      return { kind: 'skip' }
    case 'pause':
      return { kind: 'pause', cycles: whole(d.cycles) }
    case 'percent':
      return { kind: 'percent', percent: whole(d.percent), orders: whole(d.orders) }
    case 'amount':
      return { kind: 'amount', amount: whole(d.amount), orders: whole(d.orders) }
    case 'swap':
      return { kind: 'swap', variantId: d.variantId.trim(), title: '' }
  }
}

/**
 * What PUT /retention-offers/:id takes, or the message to show: the domain's own rules (the ones
 * the server applies), so a value out of range costs no request.
 */
export function toOfferBody(
  d: OfferDraft,
): { body: { offer: RetentionOfferBody | null } } | { problem: string } {
  const offer = draftOffer(d)
  const problem = offer ? offerProblem(offer) : null
  return problem ? { problem } : { body: { offer } }
}

/**
 * Saves a reason's offer: every reason's offers and results as the server now answers them (also
 * put in the cache the card reads), or the message to show (the draft's, or the server's 400/404).
 */
export async function saveRetentionOffer(
  reasonId: string,
  draft: OfferDraft,
): Promise<{ saved: RetentionOffers } | { problem: string }> {
  const made = toOfferBody(draft)
  if ('problem' in made) return made
  try {
    const saved = await api('PUT /retention-offers/:id', { params: { id: reasonId }, body: made.body })
    await setCached('GET /retention-offers', OFFERS_INPUT, saved)
    return { saved }
  } catch (error) {
    return { problem: errorMessage(error) }
  }
}

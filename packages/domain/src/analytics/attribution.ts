import { formatPercent } from '../format/numbers.ts'

/**
 * Traffic sources (docs/analytics.md, "attribution rule"). A page view carries the utm_*
 * parameters of its landing URL; one without utm_source is direct. A contract is attributed to
 * the last non-direct page view of the same browser (the pixel's clientId) within the 30 days
 * before the checkout that made it; none → no attribution ("direct / none").
 */

export const ATTRIBUTION_WINDOW_DAYS = 30
/** Longest utm value kept (longer values are cut, not refused: a campaign name is not an attack). */
export const UTM_MAX_LENGTH = 200

export type Utm = { source: string; medium: string; campaign: string; content: string }
export type Touch = Utm & { occurredAt: Date }

const clean = (value: string | null): string =>
  (value ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, UTM_MAX_LENGTH)

/** The utm parameters of a landing URL (empty strings when absent or the URL is not one). */
export function utmOf(url: string): Utm {
  let params: URLSearchParams
  try {
    params = new URL(url).searchParams
  } catch {
    return { source: '', medium: '', campaign: '', content: '' }
  }
  return {
    source: clean(params.get('utm_source')).toLowerCase(),
    medium: clean(params.get('utm_medium')).toLowerCase(),
    campaign: clean(params.get('utm_campaign')),
    content: clean(params.get('utm_content')),
  }
}

/** The touch a checkout at `checkoutAt` is attributed to, or null (the rule above). */
export function attributedTouch(touches: Touch[], checkoutAt: Date): Touch | null {
  const earliest = checkoutAt.getTime() - ATTRIBUTION_WINDOW_DAYS * 86_400_000
  let best: Touch | null = null
  for (const t of touches) {
    const at = t.occurredAt.getTime()
    if (t.source === '' || at > checkoutAt.getTime() || at < earliest) continue
    if (!best || at > best.occurredAt.getTime()) best = t
  }
  return best
}

/** Achieved ÷ access as a percent with one decimal (spec §9), `—` without access. */
export function trafficRate(accessCount: number, achievedCount: number): string {
  return accessCount === 0 ? '—' : formatPercent(achievedCount / accessCount, 1)
}

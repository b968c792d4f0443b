/**
 * The two anchor questions the platform's documentation leaves open, each one switch in one place.
 * The evidence for each choice (and what the other value would mean) is in
 * docs/decisions/0009-billing-dates-and-prices.md, "Anchors". Change a value here, and only here,
 * if the platform is shown to behave otherwise; the tests of both values stay.
 */
export type AnchorRules = {
  /**
   * Which anchors of a policy bill. `EVERY_ANCHOR`: each anchor is a billing day (MONTHDAY 10 and
   * 20 bill on the 10th and the 20th), as the platform's billing cycles show for a contract with two
   * anchors. `FIRST_ANCHOR`: only the first listed anchor counts, as developers reported of the
   * platform in 2021.
   */
  severalAnchors: 'EVERY_ANCHOR' | 'FIRST_ANCHOR'
  /**
   * The first billing after an ASAP order when `intervalCount` is N > 1. `COUNT_FROM_NEXT_ANCHOR`:
   * the next eligible anchor, then N - 1 more intervals (every 2 weeks on Monday, ordered on a
   * Thursday: the second Monday), as developers report the platform does. `NEXT_ANCHOR`: the next
   * eligible anchor itself, whatever N is.
   */
  firstCycleWithCount: 'COUNT_FROM_NEXT_ANCHOR' | 'NEXT_ANCHOR'
}

/** The rules the app bills by (ADR 0009, "Anchors"). */
export const ANCHOR_RULES: Readonly<AnchorRules> = Object.freeze({
  severalAnchors: 'EVERY_ANCHOR',
  firstCycleWithCount: 'COUNT_FROM_NEXT_ANCHOR',
})

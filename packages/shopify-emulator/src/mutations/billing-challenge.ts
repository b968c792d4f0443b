import { timingSafeEqual } from 'node:crypto'
import type { Context } from '../context.ts'
import { readBody } from '../http.ts'
import { matchShopPage, type PageHandler, platformPage, sendPage } from '../platform-pages.ts'
import type { BillingAttemptRecord, ShopState } from '../records.ts'
import { findById } from '../store.ts'
import { escapeHtml } from '../storefront/layout.ts'
import { CHALLENGE_PATH, failAttempt, succeedAttempt } from './billing-outcome.ts'

// The customer's side of a 3-D Secure challenge: the page behind a challenged attempt's
// `nextActionUrl`, where the "customer" authenticates or fails to, and the same step for tests.

export type ChallengeResult = 'success' | 'failure'

/** The attempt whose challenge is still open (a token of its URL given: only if it matches). */
export function openChallenge(
  shop: ShopState,
  attemptId: number,
  token?: string,
): BillingAttemptRecord | undefined {
  const attempt = findById(shop.billingAttempts, attemptId)
  if (!attempt?.challengeToken) return undefined
  if (token === undefined) return attempt
  const a = Buffer.from(attempt.challengeToken)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b) ? attempt : undefined
}

/**
 * The customer completes the challenge (the order is created: success webhook) or fails it
 * (AUTHENTICATION_ERROR, "There was an error during the payment authentication": failure
 * webhook). False when the attempt has no open challenge. The URL stays on the attempt.
 */
export function completeChallenge(ctx: Context, attemptId: number, result: ChallengeResult): boolean {
  const attempt = openChallenge(ctx.shop, attemptId)
  const c = attempt && findById(ctx.shop.contracts, attempt.contractId)
  if (!attempt || !c) return false
  attempt.challengeToken = null
  if (result === 'success') succeedAttempt(ctx, c, attempt)
  else failAttempt(ctx, c, attempt, 'AUTHENTICATION_ERROR')
  return true
}

const CHALLENGE_URL = new RegExp(`^${CHALLENGE_PATH}/([^/]+)/(\\d+)/([0-9a-f]+)$`)

/**
 * GET: the issuer's authentication page (two buttons: 認証する / 認証しない). POST
 * (`result=success|failure`): the customer's answer, applied once. True when the path was one
 * of these (an unknown or settled challenge answers 404).
 */
export const handleChallengePage: PageHandler = async (req, res, deps) => {
  const found = matchShopPage(req, CHALLENGE_URL, deps.store)
  if (!found) return false
  const { match, shop } = found
  const attempt = shop && openChallenge(shop, Number(match[2]), match[3]!)
  if (!shop || !attempt) {
    sendPage(
      res,
      404,
      platformPage('本人認証', '<p>この本人認証の手続きは見つからないか、すでに終了しています。</p>'),
    )
    return true
  }
  if (req.method === 'GET') {
    const form = (value: string, label: string) =>
      `<form method="post" style="display: inline"><button name="result" value="${value}">${label}</button></form>`
    sendPage(
      res,
      200,
      platformPage(
        'カード会社による本人認証（3Dセキュア）',
        `<p>${escapeHtml(shop.info.name)} の定期便のお支払いに本人認証が必要です。</p>
<p>${form('success', '認証する')} ${form('failure', '認証しない')}</p>`,
      ),
    )
    return true
  }
  const result = new URLSearchParams(await readBody(req)).get('result')
  if (result !== 'success' && result !== 'failure') {
    sendPage(res, 400, platformPage('本人認証', '<p>認証の結果を選んでください。</p>'))
    return true
  }
  const ctx: Context = { shop, store: deps.store, now: () => Date.now(), runtime: deps.runtime }
  completeChallenge(ctx, attempt.id, result)
  sendPage(
    res,
    200,
    platformPage(
      '本人認証',
      result === 'success'
        ? '<p>本人認証が完了しました。ご注文を承りました。</p>'
        : '<p>本人認証ができませんでした。ストアからのご案内をお待ちください。</p>',
    ),
  )
  return true
}

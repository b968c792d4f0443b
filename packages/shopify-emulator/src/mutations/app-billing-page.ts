import { formatDecimal } from '../format.ts'
import { readBody } from '../http.ts'
import { matchShopPage, type PageHandler, platformPage, sendPage } from '../platform-pages.ts'
import type { AppSubscriptionRecord } from '../records.ts'
import { escapeHtml } from '../storefront/layout.ts'
import { approveAppSubscription, confirmationPath } from './app-billing.ts'
import { moveAppSubscription } from './app-subscription-status.ts'

const CHARGE_URL = /^\/admin\/charges\/([^/]+)\/(\d+)\/confirm$/

const page = (title: string, body: string) => platformPage(title, body, '34rem')

function priceText(sub: AppSubscriptionRecord): string {
  const details = sub.lineItems[0]?.plan.pricingDetails
  if (details?.__typename !== 'AppRecurringPricing') return '—'
  const { amount, currencyCode } = details.price as { amount: string; currencyCode: string }
  const n = Number(amount)
  return currencyCode === 'JPY'
    ? `¥${Math.round(n).toLocaleString('en-US')}`
    : `${formatDecimal(n)} ${currencyCode}`
}

/**
 * The platform's page where the merchant approves or declines an app charge
 * (`appSubscriptionCreate`'s confirmationUrl). GET shows the charge; POST `decision=approve`
 * activates it (replacing the active plan) and POST `decision=decline` declines it, each with
 * its `app_subscriptions/update` webhooks; both send the merchant back to the app's returnUrl
 * with `charge_id`, as the platform does.
 */
export const handleChargePage: PageHandler = async (req, res, deps) => {
  const found = matchShopPage(req, CHARGE_URL, deps.store)
  if (!found) return false
  const { match, shop } = found
  const sub = shop?.installation.subscriptions.find((s) => s.id === Number(match[2]))
  if (!shop || !sub) {
    sendPage(res, 404, page('アプリの料金の承認', '<p>この料金の承認手続きは見つかりません。</p>'))
    return true
  }
  if (req.method === 'GET') {
    const action = confirmationPath(shop.info.myshopifyDomain, sub.id)
    const pending = sub.status === 'PENDING'
    sendPage(
      res,
      200,
      page(
        'アプリの料金の承認',
        `<p>${escapeHtml(shop.info.name)} に、アプリが次の料金を請求しようとしています。</p>
<dl><dt>プラン</dt><dd id="charge-name">${escapeHtml(sub.name)}</dd>
<dt>料金</dt><dd id="charge-price">${escapeHtml(priceText(sub))}／30日</dd>
<dt>無料体験</dt><dd>${sub.trialDays}日間</dd>${sub.test ? '<dt>テスト</dt><dd>テスト請求（実際には請求されません）</dd>' : ''}</dl>
${
  pending
    ? `<form method="post" action="${escapeHtml(action)}"><button name="decision" value="approve">承認する</button>
<button name="decision" value="decline">承認しない</button></form>`
    : `<p>この料金はすでに処理されています（${escapeHtml(sub.status)}）。</p>`
}`,
      ),
    )
    return true
  }
  const decision = new URLSearchParams(await readBody(req)).get('decision')
  if (decision !== 'approve' && decision !== 'decline') {
    sendPage(res, 400, page('アプリの料金の承認', '<p>承認するかどうかを選んでください。</p>'))
    return true
  }
  const ctx = { shop, runtime: deps.runtime, now: Date.now() }
  if (decision === 'approve') approveAppSubscription(ctx, sub.id)
  else if (sub.status === 'PENDING') moveAppSubscription(ctx, sub, 'DECLINED')
  deps.store.changed()
  const target = new URL(sub.returnUrl)
  target.searchParams.set('charge_id', String(sub.id))
  res.writeHead(303, { location: target.toString() })
  res.end()
  return true
}

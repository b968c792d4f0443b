import type { MyPageContract, MyPageSubscriptions } from '@teiki/contract'
import { formatDateJa, formatMoney } from '@teiki/domain'
import { changeForms, escapeHtml, type FormContext, offerHtml } from './page-forms.ts'

/**
 * マイページ as the storefront shows it: HTML the app proxy answers with `Content-Type:
 * application/liquid`, so the platform renders it inside the shop's theme. Everything the
 * customer or the catalogue wrote is escaped, braces too, since the platform reads the answer
 * as Liquid (a product named `{{ shop.secret }}` stays text). Japanese, phone first.
 */

const STYLE = `<style>
.teiki-mypage{max-width:720px;margin:0 auto;padding:1rem;font-size:1rem;line-height:1.6}
.teiki-mypage h1{font-size:1.4rem;margin:0 0 1rem}
.teiki-card{border:1px solid #d9d9d9;border-radius:10px;padding:1rem;margin:0 0 1rem}
.teiki-card header{display:flex;justify-content:space-between;align-items:center;gap:0.5rem;flex-wrap:wrap}
.teiki-card h2{font-size:1.1rem;margin:0}
.teiki-badge{border-radius:999px;padding:0.1rem 0.6rem;font-size:0.85rem;background:#e3f1df;color:#1a5e20}
.teiki-badge[data-status="PAUSED"]{background:#fff1d6;color:#7a4b00}
.teiki-badge[data-status="CANCELLED"],.teiki-badge[data-status="EXPIRED"],.teiki-badge[data-status="FAILED"]{background:#eee;color:#555}
.teiki-card dl{display:grid;grid-template-columns:7.5em 1fr;gap:0.25rem 0.75rem;margin:0.75rem 0}
.teiki-card dt{color:#555}.teiki-card dd{margin:0;overflow-wrap:anywhere}
.teiki-lines{width:100%;border-collapse:collapse;margin:0.5rem 0}
.teiki-lines th,.teiki-lines td{border-top:1px solid #eee;padding:0.4rem 0.25rem;text-align:left;vertical-align:top}
.teiki-lines .num{text-align:right;white-space:nowrap}
.teiki-card h3{font-size:1rem;margin:0.75rem 0 0.25rem}
.teiki-card ul{margin:0;padding-left:1.2rem}
.teiki-notice{border-radius:8px;padding:0.75rem 1rem;margin:0 0 1rem;background:#e3f1df;color:#1a5e20}
.teiki-notice[data-ok="false"]{background:#fde8e8;color:#8a1c1c}
.teiki-changes{border-top:1px solid #eee;margin-top:0.75rem;padding-top:0.5rem}
.teiki-changes details{border-bottom:1px solid #eee;padding:0.4rem 0}
.teiki-changes summary{cursor:pointer;font-weight:600;min-height:44px;display:flex;align-items:center;gap:0.5rem;list-style:none}
.teiki-changes summary::-webkit-details-marker{display:none}
.teiki-changes summary::after{content:"＋";margin-left:auto;color:#555}
.teiki-changes details[open] summary::after{content:"－"}
.teiki-changes form{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;margin:0.5rem 0}
.teiki-changes button,.teiki-changes select,.teiki-changes input{font-size:1rem;min-height:44px;padding:0.3rem 0.6rem}
.teiki-changes button{border-radius:8px;border:1px solid #333;background:#fff;cursor:pointer}
.teiki-changes .danger{border-color:#b42318;color:#b42318}
.teiki-note{color:#555;font-size:0.9rem;margin:0.5rem 0}
@media (max-width:480px){.teiki-card dl{grid-template-columns:1fr}.teiki-card dt{font-size:0.85rem}}
</style>`

function dates(c: MyPageContract, timeZone: string): string {
  if (!c.nextBillingDate || !c.nextDeliveryDate) return ''
  const slot = c.deliveryTime ? `（${escapeHtml(c.deliveryTime)}）` : ''
  return `<dt>次回のお届け予定</dt><dd data-teiki="next-delivery">${formatDateJa(c.nextDeliveryDate, timeZone)}${slot}</dd>
<dt>次回のお支払い</dt><dd data-teiki="next-billing">${formatDateJa(c.nextBillingDate, timeZone)}</dd>`
}

function address(c: MyPageContract): string {
  const a = c.address
  if (!a) return ''
  const line = [a.prefecture, a.city, a.address1].join('') + (a.address2 ? ` ${a.address2}` : '')
  return `<dt>お届け先</dt><dd>〒${escapeHtml(a.zip)} ${escapeHtml(line)}<br>${escapeHtml(a.name)} 様</dd>`
}

function lines(c: MyPageContract): string {
  const rows = c.lines
    .map((l) => {
      const name = l.variantTitle ? `${l.title}（${l.variantTitle}）` : l.title
      const price = l.unitPrice === null ? '—' : formatMoney(l.unitPrice, c.currencyCode)
      return `<tr><td>${escapeHtml(name)}</td><td class="num">${l.quantity}</td><td class="num">${price}</td></tr>`
    })
    .join('')
  return `<table class="teiki-lines"><thead><tr><th>商品</th><th class="num">数量</th><th class="num">単価</th></tr></thead><tbody>${rows}</tbody></table>`
}

function orders(c: MyPageContract, timeZone: string): string {
  if (c.orders.length === 0) return ''
  const items = c.orders
    .map(
      (o) =>
        `<li>${escapeHtml(o.name)}　${formatDateJa(o.createdAt, timeZone)}　${o.total === null ? '' : formatMoney(o.total, c.currencyCode)}</li>`,
    )
    .join('')
  return `<h3>これまでのご注文</h3><ul>${items}</ul>`
}

function card(c: MyPageContract, timeZone: string, forms: FormContext): string {
  const plan = [...new Set(c.lines.map((l) => l.sellingPlanName).filter(Boolean))].join('・')
  const payment = c.card
    ? `<dt>お支払い方法</dt><dd>${escapeHtml(c.card.brand.toUpperCase())} •••• ${escapeHtml(c.card.lastDigits)}</dd>`
    : ''
  return `<article class="teiki-card" data-contract="${escapeHtml(c.contractId)}">
<header><h2>${escapeHtml(plan || '定期購入')}</h2><span class="teiki-badge" data-status="${escapeHtml(c.status)}">${escapeHtml(c.statusLabel)}</span></header>
<dl>${dates(c, timeZone)}${address(c)}${payment}</dl>
${lines(c)}${changeForms(forms, c)}${orders(c, timeZone)}
</article>`
}

export type PageOptions = {
  timeZone: string
  /** The proxy's root relative to the page (routes.ts `proxyRoot`) and this customer's form token. */
  root: string
  token: string
  /** The result of a change just made, shown above the contracts. */
  notice?: { ok: boolean; text: string } | undefined
  /** A cancellation answered with its reason's offer: shown first, to accept or decline. */
  offer?: { contractId: string; reasonId: string; label: string } | undefined
}

/** The page of a signed-in customer: their contracts, newest first, with the changes allowed now. */
export function myPageHtml(answer: MyPageSubscriptions, opts: PageOptions): string {
  const forms: FormContext = { root: opts.root, token: opts.token, page: answer }
  const body =
    answer.contracts.length === 0
      ? '<p>ご契約中の定期購入はありません。</p>'
      : answer.contracts.map((c) => card(c, opts.timeZone, forms)).join('\n')
  const notice = opts.notice
    ? `<p class="teiki-notice" role="status" data-ok="${opts.notice.ok}">${escapeHtml(opts.notice.text)}</p>`
    : ''
  const offer = opts.offer ? offerHtml(opts.offer, forms) : ''
  return `${STYLE}<section class="teiki-mypage"><h1>定期便のご契約</h1>${notice}${offer}${body}</section>`
}

/** The page for nobody signed in: where to sign in. */
export function signInHtml(): string {
  return `${STYLE}<section class="teiki-mypage"><h1>定期便のご契約</h1>
<p>定期便のご契約を確認・変更するには、ログインしてください。</p>
<p><a href="/account/login">ログイン</a></p></section>`
}

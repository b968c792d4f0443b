import type { MyPageContract, MyPageSubscriptions } from '@teiki/contract'
import { formatMoney } from '@teiki/domain'

/**
 * マイページ's change forms (no script: each is a plain POST through the app proxy, answered with
 * the page and its result). Only the changes the rules allow now are offered; when none is, the
 * reason (the change lock, usually) is said once.
 */

export const escapeHtml = (text: string) => text.replace(/[&<>"'{}%]/g, (c) => `&#${c.charCodeAt(0)};`)

export type FormContext = {
  /** The proxy's root relative to the page (`''`, `'../../'`): forms post under the proxy path. */
  root: string
  /** This customer's form token (form-token.ts). */
  token: string
  page: MyPageSubscriptions
}

function form(ctx: FormContext, c: MyPageContract, action: string, fields: string, button: string, cls = '') {
  const url = `${ctx.root}my-page/${encodeURIComponent(c.contractId)}/${action}`
  return `<form method="post" action="${escapeHtml(url)}" data-teiki-action="${action}">
<input type="hidden" name="token" value="${escapeHtml(ctx.token)}">${fields}<button type="submit"${cls ? ` class="${cls}"` : ''}>${button}</button></form>`
}

const section = (title: string, body: string, open = false) =>
  `<details${open ? ' open' : ''}><summary>${title}</summary>${body}</details>`

const options = (items: Array<{ value: string; label: string }>, selected: string | null = null) =>
  items
    .map(
      (i) =>
        `<option value="${escapeHtml(i.value)}"${i.value === selected ? ' selected' : ''}>${escapeHtml(i.label)}</option>`,
    )
    .join('')

function scheduleForms(ctx: FormContext, c: MyPageContract): string[] {
  const out: string[] = []
  if (c.refusals.skip === null)
    out.push(section('次回のお届けをスキップ', form(ctx, c, 'skip', '', '次回のお届けをスキップする')))
  if (c.refusals.date === null && c.dateWindow) {
    const w = c.dateWindow
    const value = c.nextBillingDate && c.nextBillingDate >= w.from ? c.nextBillingDate : w.from
    const field = `<label>次回のご注文日 <input type="date" name="date" min="${w.from}" max="${w.to}" value="${value}" required></label>`
    out.push(section('次回のご注文日を変更', form(ctx, c, 'date', field, '変更する')))
  }
  if (c.refusals.pause === null) {
    const cycles = `<label>お休みする回数 <select name="cycles">${options(
      [1, 2, 3].map((n) => ({ value: String(n), label: `${n}回` })),
    )}</select></label>`
    out.push(section('お休みする（一時停止）', form(ctx, c, 'pause', cycles, 'お休みする')))
  }
  if (c.refusals.resume === null)
    out.push(section('定期便を再開', form(ctx, c, 'resume', '', '再開する'), true))
  return out
}

function lineForms(ctx: FormContext, c: MyPageContract): string[] {
  const out: string[] = []
  for (const l of c.lines) {
    const name = escapeHtml(l.variantTitle ? `${l.title}（${l.variantTitle}）` : l.title)
    const line = `<input type="hidden" name="lineId" value="${escapeHtml(l.lineId)}">`
    const parts: string[] = []
    if (c.refusals.quantity === null) {
      const field = `${line}<label>数量 <input type="number" name="quantity" min="1" max="99" value="${l.quantity}" required inputmode="numeric"></label>`
      parts.push(form(ctx, c, 'quantity', field, '数量を変更'))
    }
    const swaps = ctx.page.swapVariants
    if (c.refusals.swap === null && swaps.length > 0) {
      const items = swaps.map((v) => ({
        value: v.variantId,
        label: v.price === null ? v.title : `${v.title} ${formatMoney(v.price, c.currencyCode)}`,
      }))
      const field = `${line}<label>変更後の商品 <select name="variantId">${options(items)}</select></label>`
      parts.push(form(ctx, c, 'swap', field, '商品を変更'))
    }
    if (parts.length > 0) out.push(section(`${name} の数量・商品を変更`, parts.join('')))
  }
  return out
}

function deliveryForms(ctx: FormContext, c: MyPageContract): string[] {
  const out: string[] = []
  if (c.refusals.slot === null) {
    const current = ctx.page.slots.find((s) => s.label === c.deliveryTime)?.value ?? 'NONE'
    const field = `<label>配送時間帯 <select name="deliveryTime">${options(ctx.page.slots, current)}</select></label>`
    out.push(section('配送時間帯を変更', form(ctx, c, 'slot', field, '変更する')))
  }
  if (c.refusals.cardMail === null && c.card)
    out.push(
      section(
        'お支払いカードを変更',
        `<p class="teiki-note">カード情報の変更用のメールをお送りします。メールのリンクから新しいカードをご登録ください。</p>${form(ctx, c, 'card-mail', '', '変更用のメールを送る')}`,
      ),
    )
  return out
}

function cancelForm(ctx: FormContext, c: MyPageContract): string[] {
  if (c.refusals.cancel !== null || ctx.page.cancellationReasons.length === 0) return []
  const reasons = ctx.page.cancellationReasons.map((r) => ({ value: r.id, label: r.reason }))
  const field = `<label>解約の理由 <select name="reasonId" required><option value="">選択してください</option>${options(reasons)}</select></label>`
  return [section('定期便を解約', form(ctx, c, 'cancel', field, '解約する', 'danger'))]
}

/** The change forms of one contract, or the reason there are none. */
export function changeForms(ctx: FormContext, c: MyPageContract): string {
  if (c.status === 'CANCELLED' || c.status === 'EXPIRED') return ''
  const parts = [
    ...scheduleForms(ctx, c),
    ...lineForms(ctx, c),
    ...deliveryForms(ctx, c),
    ...cancelForm(ctx, c),
  ]
  const locked = c.refusals.skip ?? c.refusals.quantity
  const note = locked && parts.length <= 1 ? `<p class="teiki-note">${escapeHtml(locked)}</p>` : ''
  if (parts.length === 0 && !note) return ''
  return `<div class="teiki-changes"><h3>ご契約内容の変更</h3>${note}${parts.join('')}</div>`
}

/** The offer of a cancellation reason, asked once: keep the subscription with it, or cancel. */
export function offerHtml(
  offer: { contractId: string; reasonId: string; label: string },
  ctx: FormContext,
): string {
  const url = `${ctx.root}my-page/${encodeURIComponent(offer.contractId)}/cancel`
  const fields = (decision: string) =>
    `<input type="hidden" name="token" value="${escapeHtml(ctx.token)}"><input type="hidden" name="reasonId" value="${escapeHtml(offer.reasonId)}"><input type="hidden" name="decision" value="${decision}">`
  return `<div class="teiki-card teiki-offer" data-teiki="offer"><h2>解約の前にご検討ください</h2>
<p>定期便を続けていただける場合、<strong>${escapeHtml(offer.label)}</strong>をご利用いただけます。</p>
<div class="teiki-changes"><form method="post" action="${escapeHtml(url)}" data-teiki-action="accept">${fields('accept')}<button type="submit">${escapeHtml(offer.label)}で続ける</button></form>
<form method="post" action="${escapeHtml(url)}" data-teiki-action="decline">${fields('decline')}<button type="submit" class="danger">このまま解約する</button></form></div></div>`
}

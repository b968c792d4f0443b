import { DELIVERY_TIME_LABELS, PREFECTURES } from '@teiki/domain'
import type { Context } from '../context.ts'
import type { ContractRecord, OrderRecord } from '../records.ts'
import { findById } from '../store.ts'
import type { Cart } from './cart.ts'
import { type Buyer, checkoutUnitPrice } from './checkout.ts'
import { escapeHtml } from './layout.ts'
import { formatMoney } from './liquid.ts'
import { MONEY_FORMAT } from './product-page.ts'

/** The cart, checkout and thank-you pages' content (the layout wraps them). */

const yen = (amount: number) => formatMoney(Math.round(amount * 100), MONEY_FORMAT)

function planName(ctx: Context, planId: number | null): string {
  if (planId === null) return '通常購入（1回のみ）'
  for (const g of ctx.shop.sellingPlanGroups) {
    const plan = g.sellingPlans.find((p) => p.id === planId)
    if (plan) return `定期購入: ${plan.name}`
  }
  return '定期購入'
}

/** The shopper's messages (validation errors, a refused form), each as the page's alert. */
const alerts = (errors: readonly string[]) =>
  errors.length === 0
    ? ''
    : `<div class="error" role="alert">${errors.map((e) => `<p>${escapeHtml(e)}</p>`).join('')}</div>`

const BOX_ID = '_box_id'

/**
 * The 削除 form of a line. A box's line (the box block's `_box_id`) removes the box as a whole,
 * its lines on that plan together, with one `/cart/update` (quantities by line): taken out one
 * product at a time, a box at its minimum could never leave the cart, as its rule refuses each step.
 */
function removeForm(cart: Cart, index: number, base: string): string {
  const line = cart.lines[index]!
  const box = line.properties[BOX_ID]
  if (box === undefined)
    return `<form method="post" action="${base}/cart/change"><input type="hidden" name="line" value="${index + 1}"><input type="hidden" name="quantity" value="0"><button type="submit">削除</button></form>`
  const quantities = cart.lines.map((l) =>
    l.properties[BOX_ID] === box && l.sellingPlanId === line.sellingPlanId ? 0 : l.quantity,
  )
  const inputs = quantities.map((q) => `<input type="hidden" name="updates[]" value="${q}">`).join('')
  return `<form method="post" action="${base}/cart/update">${inputs}<button type="submit">ボックスを削除</button></form>`
}

function cartRows(
  ctx: Context,
  cart: Cart,
  base: string,
  editable: boolean,
): { rows: string; total: number } {
  let total = 0
  const rows = cart.lines.map((line, index) => {
    const variant = findById(ctx.shop.variants, line.variantId)
    const product = variant && findById(ctx.shop.products, variant.productId)
    const unit = checkoutUnitPrice(ctx, line)
    total += unit * line.quantity
    const box = line.properties._box ? `・詰め合わせ: ${escapeHtml(line.properties._box)}` : ''
    return `<tr>
  <td>${escapeHtml(product?.title ?? '')}<br><span class="muted">${escapeHtml(variant?.title ?? '')}・${escapeHtml(planName(ctx, line.sellingPlanId))}${box}</span></td>
  <td class="num">${yen(unit)}</td><td class="num">${line.quantity}</td><td class="num">${yen(unit * line.quantity)}</td><td>${editable ? removeForm(cart, index, base) : ''}</td>
</tr>`
  })
  return { rows: rows.join('\n'), total }
}

/** The cart page, with `errors` (the validations' messages, a refused change) above the lines. */
export function cartBody(ctx: Context, cart: Cart, base: string, errors: readonly string[] = []): string {
  if (cart.lines.length === 0) {
    return `<h1>カート</h1>${alerts(errors)}<p>カートは空です。</p><p><a href="${base}/">商品一覧へ</a></p>`
  }
  const { rows, total } = cartRows(ctx, cart, base, true)
  return `<h1>カート</h1>
${alerts(errors)}
<table class="table"><thead><tr><th>商品</th><th>単価（初回）</th><th>数量</th><th>小計</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>
<p>商品合計（初回）: <strong>${yen(total)}</strong><span class="muted">（送料は次の画面で計算されます）</span></p>
<p><a class="button" style="display:inline-block;width:auto;text-decoration:none" href="${base}/checkout">ご購入手続きへ</a></p>`
}

/** What the checkout form starts with: a new demo shopper (change the e-mail to buy as a known customer). */
export function defaultBuyer(now: number): Buyer {
  return {
    email: `hanako.${now.toString(36)}@example.jp`,
    lastName: '山田',
    firstName: '花子',
    phone: '090-1234-5678',
    zip: '150-0041',
    provinceCode: 'JP-13',
    city: '渋谷区',
    address1: '神南1-2-3',
    address2: null,
    deliveryTime: null,
  }
}

const field = (name: keyof Buyer, label: string, value: string | null, type = 'text') =>
  `<label class="field">${label}<input type="${type}" name="${name}" value="${escapeHtml(value ?? '')}"${name === 'address2' || name === 'phone' ? '' : ' required'}></label>`

const options = (choices: ReadonlyArray<readonly [string, string]>, selected: string) =>
  choices
    .map(
      ([value, label]) =>
        `<option value="${value}"${value === selected ? ' selected' : ''}>${label}</option>`,
    )
    .join('')

export function checkoutBody(
  ctx: Context,
  cart: Cart,
  base: string,
  buyer: Buyer,
  errors: readonly string[] = [],
): string {
  const { rows, total } = cartRows(ctx, cart, base, false)
  // Every prefecture, in the platform's codes (the domain's one list), and the app's time slots.
  const provinces = options(
    PREFECTURES.map((p) => [p.code, p.name]),
    buyer.provinceCode,
  )
  const slots = options(Object.entries(DELIVERY_TIME_LABELS), buyer.deliveryTime ?? 'NONE')
  return `<h1>ご購入手続き</h1>
${alerts(errors)}
<table class="table"><tbody>${rows}</tbody></table>
<p>商品合計: <strong>${yen(total)}</strong></p>
<form method="post" action="${base}/checkout" style="max-width:32rem">
  ${field('email', 'メールアドレス', buyer.email, 'email')}
  <div style="display:grid;grid-template-columns:1fr 1fr;gap:0.75rem">${field('lastName', '姓', buyer.lastName)}${field('firstName', '名', buyer.firstName)}</div>
  ${field('phone', '電話番号', buyer.phone, 'tel')}
  ${field('zip', '郵便番号', buyer.zip)}
  <label class="field">都道府県<select name="provinceCode">${provinces}</select></label>
  ${field('city', '市区町村', buyer.city)}
  ${field('address1', '番地', buyer.address1)}
  ${field('address2', '建物名・部屋番号', buyer.address2)}
  <label class="field">配送時間帯<select name="deliveryTime">${slots}</select></label>
  <p class="notice">お支払い: デモカード VISA •••• 4242（エミュレーターのテスト決済です。実際の請求は行われません）</p>
  <button type="submit" class="button">デモカードで支払う</button>
</form>`
}

export function thankYouBody(
  ctx: Context,
  order: OrderRecord,
  contracts: readonly ContractRecord[],
  base: string,
): string {
  const date = (ms: number) =>
    new Intl.DateTimeFormat('ja-JP', { timeZone: ctx.shop.info.ianaTimezone, dateStyle: 'long' }).format(ms)
  const items = contracts
    .map(
      (c) =>
        `<li>定期購入契約 #${c.id}（${escapeHtml(c.lines.map((l) => l.sellingPlanName ?? '').join('・'))}）: 次回のお支払い ${c.nextBillingDate === null ? '—' : date(c.nextBillingDate)}</li>`,
    )
    .join('')
  return `<h1>ご注文ありがとうございます</h1>
<p>ご注文番号 <strong>#${order.number}</strong>・お支払い金額 <strong>${yen(order.totalPriceSet)}</strong></p>
${contracts.length > 0 ? `<ul>${items}</ul>` : ''}
<p><a href="${base}/">買い物を続ける</a></p>`
}

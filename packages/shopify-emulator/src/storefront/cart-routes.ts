import { readBody, sendJson } from '../http.ts'
import type { ShopState } from '../records.ts'
import { findById } from '../store.ts'
import type { Cart, CartLine } from './cart.ts'
import { cartBody } from './cart-pages.ts'
import { type CartRequest, redirect, sendHtml } from './cart-request.ts'
import { cartValidationErrors } from './cart-validation.ts'

/**
 * The cart's changes, as the Online Store's cart endpoints make them: `/cart/add` (form) and
 * `/cart/add.js` (Ajax API), `/cart/change` (form), `/cart/update` (form) and `/cart/update.js`.
 * Each change is made on a copy of the cart and the shop's validations run on the copy (step
 * CART_INTERACTION, cart-validation.ts); the platform refuses a cart change its validations
 * refuse (shopify.dev, "Create a server-side validation function": the Storefront API's cart
 * mutation is unsuccessful, with the function's message; the Ajax API answers 422 with it), so
 * here the cart is kept as it was and the shopper reads why: the cart page with the messages, or
 * the Ajax API's 422 `{ status, message, description }`.
 */

const MAX_QUANTITY = 99

/** A cart line from the platform's add parameters; null when the variant or plan is not the shop's. */
export function cartLine(
  shop: ShopState,
  id: unknown,
  quantity: unknown,
  plan: unknown,
  properties?: unknown,
): CartLine | null {
  const variant = findById(shop.variants, Number(id))
  const q = quantity === undefined || quantity === null || quantity === '' ? 1 : Number(quantity)
  if (!variant || !Number.isInteger(q) || q < 1) return null
  let sellingPlanId: number | null = null
  if (plan !== undefined && plan !== null && plan !== '') {
    const groups = shop.sellingPlanGroups.filter(
      (g) => g.productIds.includes(variant.productId) || g.variantIds?.includes(variant.id),
    )
    if (!groups.some((g) => g.sellingPlans.some((p) => p.id === Number(plan)))) return null
    sellingPlanId = Number(plan)
  }
  const props: Record<string, string> = {}
  if (properties && typeof properties === 'object') {
    for (const [k, v] of Object.entries(properties))
      if (typeof v === 'string') props[k.slice(0, 100)] = v.slice(0, 500)
  }
  return { variantId: variant.id, quantity: q, sellingPlanId, properties: props }
}

/**
 * Makes `change` on a copy of the cart and keeps the copy when the validations allow it: the
 * messages that refused it otherwise (the cart untouched).
 */
function changeChecked(r: CartRequest, change: (next: Cart) => void): string[] {
  const next: Cart = structuredClone(r.cart)
  change(next)
  const errors = cartValidationErrors(r.ctx, next, 'CART_INTERACTION')
  if (errors.length === 0) {
    r.cart.lines = next.lines
    r.cart.attributes = next.attributes
  }
  return errors
}

/** The cart page with the messages of a refused change (422), the cart as it was. */
const refusedPage = ({ res, ctx, cart, cookie, base, page }: CartRequest, errors: string[]) =>
  sendHtml(res, 422, page('カート', cartBody(ctx, cart, base, errors)), cookie)

/** The Ajax API's refusal. */
const refusedJson = (r: CartRequest, description: string) =>
  sendJson(r.res, 422, { status: 422, message: 'Cart Error', description })

export async function cartAdd(r: CartRequest) {
  const { req, res, ctx, sf, cookie, base, page } = r
  const form = new URLSearchParams(await readBody(req))
  const properties: Record<string, string> = {}
  for (const [name, value] of form) {
    const m = /^properties\[(.+)\]$/.exec(name)
    if (m) properties[m[1]!] = value
  }
  const line = cartLine(ctx.shop, form.get('id'), form.get('quantity'), form.get('selling_plan'), properties)
  if (!line)
    return sendHtml(
      res,
      422,
      page('カート', '<p class="error">この商品はカートに追加できません。</p>'),
      cookie,
    )
  const errors = changeChecked(r, (next) => sf.carts.add(next, line))
  if (errors.length > 0) return refusedPage(r, errors)
  redirect(res, `${base}/cart`, cookie)
}

/** The Ajax API's `/cart/add.js`: `{ items: [{ id, quantity, selling_plan, properties }] }`, all or none. */
export async function cartAddJs(r: CartRequest) {
  const { req, res, ctx, sf, cookie } = r
  let body: { items?: unknown[] } = {}
  try {
    body = JSON.parse(await readBody(req)) as { items?: unknown[] }
  } catch {}
  const items = Array.isArray(body.items) ? body.items : []
  const lines = items.map((i) => {
    const it = (i ?? {}) as Record<string, unknown>
    return cartLine(ctx.shop, it.id, it.quantity, it.selling_plan, it.properties)
  })
  res.setHeader('set-cookie', cookie)
  if (lines.length === 0 || lines.some((l) => l === null))
    return refusedJson(r, 'この商品はカートに追加できません。')
  const errors = changeChecked(r, (next) => {
    for (const line of lines) sf.carts.add(next, line!)
  })
  if (errors.length > 0) return refusedJson(r, errors.join('\n'))
  sendJson(res, 200, { items: lines })
}

/** The Ajax API's cart: what `/cart.js` and `/cart/update.js` answer (lines as `/cart/add.js` does). */
export const cartJson = (cart: Cart) => ({
  token: cart.token,
  attributes: cart.attributes,
  item_count: cart.lines.reduce((n, l) => n + l.quantity, 0),
  items: cart.lines,
})

type UpdateBody = { attributes: Record<string, unknown>; updates: number[] | null }

/** `/cart/update`'s body: JSON `{ attributes, updates: [quantity by line] }`, or the form's `attributes[key]` and `updates[]`. */
function updateBody(contentType: string, text: string): UpdateBody {
  const body: UpdateBody = { attributes: {}, updates: null }
  if (contentType.includes('application/json')) {
    try {
      const json = JSON.parse(text) as { attributes?: unknown; updates?: unknown }
      if (json.attributes && typeof json.attributes === 'object')
        body.attributes = json.attributes as Record<string, unknown>
      if (Array.isArray(json.updates)) body.updates = json.updates.map(Number)
    } catch {}
    return body
  }
  for (const [name, value] of new URLSearchParams(text)) {
    const m = /^attributes\[(.+)\]$/.exec(name)
    if (m) body.attributes[m[1]!] = value
    if (name === 'updates[]') body.updates = [...(body.updates ?? []), Number(value)]
  }
  return body
}

/**
 * `/cart/update.js` (JSON answer) and `/cart/update` (form, back to the cart): attributes (an
 * empty value removes the key) and `updates`, each line's new quantity in the cart's order (0
 * removes it). 422 and nothing changed for a body the platform would refuse (too many or too
 * long attributes, a quantity that is not one) or a change the validations refuse.
 */
export async function cartUpdate(r: CartRequest) {
  const { req, res, sf, cart, cookie, base, path } = r
  const isJs = path.endsWith('.js')
  const { attributes, updates } = updateBody(req.headers['content-type'] ?? '', await readBody(req))
  res.setHeader('set-cookie', cookie)
  const badQuantity = updates?.some((q) => !Number.isInteger(q) || q < 0) ?? false
  if (badQuantity || !sf.carts.setAttributes(structuredClone(cart), attributes)) {
    const why = badQuantity ? '数量を正しく指定してください。' : 'カートの属性を保存できません。'
    return isJs ? refusedJson(r, why) : refusedPage(r, [why])
  }
  const errors = changeChecked(r, (next) => {
    sf.carts.setAttributes(next, attributes)
    if (updates) {
      next.lines.forEach((line, i) => {
        line.quantity = Math.min(MAX_QUANTITY, updates[i] ?? line.quantity)
      })
      next.lines = next.lines.filter((line) => line.quantity > 0)
    }
  })
  if (errors.length > 0) return isJs ? refusedJson(r, errors.join('\n')) : refusedPage(r, errors)
  if (isJs) return sendJson(res, 200, cartJson(cart))
  redirect(res, `${base}/cart`, cookie)
}

/** `/cart/change` (form): line `line` (from 1) to `quantity` (0 removes it). */
export async function cartChange(r: CartRequest) {
  const { req, res, cookie, base } = r
  const form = new URLSearchParams(await readBody(req))
  const index = Number(form.get('line')) - 1
  const quantity = Number(form.get('quantity'))
  if (!Number.isInteger(index) || index < 0 || index >= r.cart.lines.length)
    return redirect(res, `${base}/cart`, cookie)
  if (!Number.isInteger(quantity) || quantity < 0) return refusedPage(r, ['数量を正しく指定してください。'])
  const errors = changeChecked(r, (next) => {
    if (quantity === 0) next.lines.splice(index, 1)
    else next.lines[index]!.quantity = Math.min(MAX_QUANTITY, quantity)
  })
  if (errors.length > 0) return refusedPage(r, errors)
  redirect(res, `${base}/cart`, cookie)
}

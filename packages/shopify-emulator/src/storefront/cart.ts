import { randomBytes } from 'node:crypto'

/**
 * Storefront carts, as the platform keeps them behind the `cart` cookie: lines of a variant,
 * a quantity, the selling plan chosen (null: one-time purchase) and line properties, and the
 * cart's attributes (`/cart/update.js`: お届け予定日 and 配送時間帯 from the product block), which
 * the checkout turns into the order's note attributes and the contracts' custom attributes.
 * Carts live in memory: a restart empties them, as an expired cookie would.
 */
export type CartLine = {
  variantId: number
  quantity: number
  sellingPlanId: number | null
  properties: Record<string, string>
}

export type Cart = { token: string; shop: string; lines: CartLine[]; attributes: Record<string, string> }

const MAX_ATTRIBUTES = 50
const MAX_ATTRIBUTE_LENGTH = 255

const MAX_CARTS = 1000
const MAX_LINES = 50
const MAX_QUANTITY = 99

export class Carts {
  private readonly carts = new Map<string, Cart>()

  /** The cart of `token` in `shop`, or a new one (the oldest cart goes past MAX_CARTS). */
  get(shop: string, token: string | undefined): Cart {
    const known = token ? this.carts.get(token) : undefined
    if (known && known.shop === shop) return known
    const cart: Cart = { token: randomBytes(16).toString('hex'), shop, lines: [], attributes: {} }
    this.carts.set(cart.token, cart)
    if (this.carts.size > MAX_CARTS) this.carts.delete(this.carts.keys().next().value!)
    return cart
  }

  /** Adds a line, or more of an equal one (same variant, plan and properties). */
  add(cart: Cart, line: CartLine): void {
    const same = cart.lines.find(
      (l) =>
        l.variantId === line.variantId &&
        l.sellingPlanId === line.sellingPlanId &&
        JSON.stringify(l.properties) === JSON.stringify(line.properties),
    )
    if (same) same.quantity = Math.min(MAX_QUANTITY, same.quantity + line.quantity)
    else if (cart.lines.length < MAX_LINES)
      cart.lines.push({ ...line, quantity: Math.min(MAX_QUANTITY, line.quantity) })
  }

  remove(cart: Cart, index: number): void {
    cart.lines.splice(index, 1)
  }

  clear(cart: Cart): void {
    cart.lines = []
    cart.attributes = {}
  }

  /**
   * `/cart/update.js`'s attributes: each key set to its value, an empty value removes the key
   * (the Ajax API's rule). False, and nothing changed, for more than 50 keys or a key or value
   * longer than 255 characters.
   */
  setAttributes(cart: Cart, attributes: Record<string, unknown>): boolean {
    const next = { ...cart.attributes }
    for (const [key, raw] of Object.entries(attributes)) {
      const value = raw === null || raw === undefined ? '' : String(raw)
      if (key.trim() === '' || key.length > MAX_ATTRIBUTE_LENGTH || value.length > MAX_ATTRIBUTE_LENGTH)
        return false
      if (value === '') delete next[key]
      else next[key] = value
    }
    if (Object.keys(next).length > MAX_ATTRIBUTES) return false
    cart.attributes = next
    return true
  }
}

import { randomBytes } from 'node:crypto'

/**
 * Storefront carts, as the platform keeps them behind the `cart` cookie: lines of a variant,
 * a quantity, the selling plan chosen (null: one-time purchase) and line properties. Carts live
 * in memory: a restart empties them, as an expired cookie would.
 */
export type CartLine = {
  variantId: number
  quantity: number
  sellingPlanId: number | null
  properties: Record<string, string>
}

export type Cart = { token: string; shop: string; lines: CartLine[] }

const MAX_CARTS = 1000
const MAX_LINES = 50
const MAX_QUANTITY = 99

export class Carts {
  private readonly carts = new Map<string, Cart>()

  /** The cart of `token` in `shop`, or a new one (the oldest cart goes past MAX_CARTS). */
  get(shop: string, token: string | undefined): Cart {
    const known = token ? this.carts.get(token) : undefined
    if (known && known.shop === shop) return known
    const cart: Cart = { token: randomBytes(16).toString('hex'), shop, lines: [] }
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
  }
}

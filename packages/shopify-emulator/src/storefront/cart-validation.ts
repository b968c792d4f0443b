import type { Context } from '../context.ts'
import { formatDecimal } from '../format.ts'
import type { FunctionExtension } from '../function-extension.ts'
import { toGid } from '../gid.ts'
import type { AppMetafieldRecord, ValidationRecord } from '../records-extra.ts'
import { findById } from '../store.ts'
import type { Cart, CartLine } from './cart.ts'
import { checkoutUnitPrice } from './checkout.ts'
import { FunctionInputError, functionInput, type InputSource } from './function-input.ts'

/**
 * The shop's cart and checkout validations, run as the platform runs them (shopify.dev, "Cart and
 * Checkout Validation Function API"): every enabled validation's function, on each cart change
 * (step CART_INTERACTION) and at checkout (CHECKOUT_INTERACTION when it is shown,
 * CHECKOUT_COMPLETION when it is paid), with the input its query names (function-input.ts). Each
 * error it returns refuses the change or the payment with its `localizedMessage`. A function that
 * throws, runs too long or answers something else than `{ errors: [...] }` fails: the cart goes on,
 * unless the merchant set the validation to block on failure (`blockOnFailure`), then it is held
 * with the platform's general message.
 */

export type BuyerJourneyStep = 'CART_INTERACTION' | 'CHECKOUT_INTERACTION' | 'CHECKOUT_COMPLETION'

/** What the shopper reads when a validation set to block on failure failed to run. */
export const VALIDATION_FAILED = 'ご注文内容を確認できませんでした。時間をおいてもう一度お試しください。'

const money = (amount: number, currencyCode: string) => ({ amount: formatDecimal(amount), currencyCode })

function metafieldSource(list: readonly AppMetafieldRecord[]) {
  return ({ namespace, key }: Record<string, unknown>) => {
    const m = list.find((f) => f.namespace === namespace && f.key === key)
    if (!m) return null
    return {
      type: m.type,
      value: m.value,
      jsonValue: () => (m.type === 'json' ? JSON.parse(m.value) : m.value),
    }
  }
}

function lineSource(ctx: Context, line: CartLine, index: number): InputSource {
  const currency = ctx.shop.info.currencyCode
  const variant = findById(ctx.shop.variants, line.variantId)
  const product = variant ? findById(ctx.shop.products, variant.productId) : undefined
  const plan = ctx.shop.sellingPlanGroups
    .flatMap((g) => g.sellingPlans)
    .find((p) => p.id === line.sellingPlanId)
  return {
    __typename: 'CartLine',
    id: toGid('CartLine', index + 1),
    quantity: line.quantity,
    attribute: ({ key }: Record<string, unknown>) => {
      const value = line.properties[String(key)]
      return value === undefined ? null : { key: String(key), value }
    },
    merchandise: variant && {
      __typename: 'ProductVariant',
      id: toGid('ProductVariant', variant.id),
      title: variant.title,
      sku: variant.sku || null,
      product: product && {
        __typename: 'Product',
        id: toGid('Product', product.id),
        handle: product.handle,
        title: product.title,
      },
    },
    sellingPlanAllocation: plan
      ? { sellingPlan: { id: toGid('SellingPlan', plan.id), name: plan.name } }
      : null,
    cost: () => {
      const unit = checkoutUnitPrice(ctx, line)
      return {
        amountPerQuantity: money(unit, currency),
        totalAmount: money(unit * line.quantity, currency),
      }
    },
  }
}

/** The graph a validation's input query is run on: the cart, the validation, the step. */
function inputGraph(ctx: Context, cart: Cart, validation: ValidationRecord, step: BuyerJourneyStep) {
  const lines = cart.lines.map((line, i) => lineSource(ctx, line, i))
  return {
    cart: {
      lines,
      attribute: ({ key }: Record<string, unknown>) => {
        const value = cart.attributes[String(key)]
        return value === undefined ? null : { key: String(key), value }
      },
      cost: () => {
        const total = cart.lines.reduce((s, l) => s + checkoutUnitPrice(ctx, l) * l.quantity, 0)
        const m = money(total, ctx.shop.info.currencyCode)
        return { subtotalAmount: m, totalAmount: m }
      },
    },
    validation: { id: toGid('Validation', validation.id), metafield: metafieldSource(validation.metafields) },
    buyerJourney: { step },
  }
}

/** The 2025-04 result's errors, or null when the function answered something else. */
function resultErrors(output: unknown): string[] | null {
  const errors = (output as { errors?: unknown } | null)?.errors
  if (!Array.isArray(errors)) return null
  const messages: string[] = []
  for (const e of errors as Array<{ localizedMessage?: unknown; target?: unknown } | null>) {
    if (typeof e?.localizedMessage !== 'string' || typeof e.target !== 'string') return null
    messages.push(e.localizedMessage)
  }
  return messages
}

function runOne(
  ctx: Context,
  fn: FunctionExtension,
  v: ValidationRecord,
  cart: Cart,
  step: BuyerJourneyStep,
) {
  try {
    const errors = resultErrors(fn.run(functionInput(fn.inputQuery, inputGraph(ctx, cart, v, step))))
    if (errors) return errors
  } catch (error) {
    // A query the emulated input cannot answer is the emulator's gap, not a failed run: said loudly.
    if (error instanceof FunctionInputError) throw error
    // A failed run: on the platform it goes to the function's error history, and the cart goes on.
  }
  return v.blockOnFailure ? [VALIDATION_FAILED] : []
}

/** The messages of every enabled validation of the shop for `cart` at `step` (none: it may go on). */
export function cartValidationErrors(ctx: Context, cart: Cart, step: BuyerJourneyStep): string[] {
  const messages: string[] = []
  for (const v of ctx.shop.extra?.validations ?? []) {
    const fn = v.enabled ? ctx.runtime.functions.find((f) => f.id === v.functionId) : undefined
    if (fn) messages.push(...runOne(ctx, fn, v, cart, step))
  }
  return [...new Set(messages)]
}

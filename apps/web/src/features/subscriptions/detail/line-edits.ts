import {
  type AddLineRequest,
  type LineQuantityRequest,
  type PriceManuallyChangedRequest,
  type SubscriptionDetail,
  type SubscriptionDetailLine,
  type SwapVariantRequest,
  ZAddLineRequest,
  ZLineQuantityRequest,
  ZPriceManuallyChangedRequest,
  ZSwapVariantRequest,
} from '@teiki/contract'
import { priceInputProblem } from '@teiki/domain'
import { ApiError, api } from '../../../app/api.ts'
import { idOf, invalid, numberText, parseWith, planned, toNumber } from './contract-edits.ts'
import { numericId } from './detail-format.ts'
import type { Planned } from './use-contract-edit.ts'
import type { VariantSummary } from './variant-search.ts'

/**
 * The line edits of the detail page's 商品 card as pure steps, like contract-edits.ts: add,
 * remove, quantity (and a hand-set price), swap to another variant.
 */

const lineOf = (detail: SubscriptionDetail, lineId: string) => ({ contractId: detail.contractId, lineId })

export const ADD_LINE_FAILED = '商品を追加できませんでした'

/** POST /subscriptions/:id/lines. Only a 200 answer means the line was added. */
export function planAddLine(
  detail: SubscriptionDetail,
  variant: VariantSummary | null,
  form: { quantity: string; price: string },
): Planned {
  if (!variant) return invalid('追加する商品を選択してください', 'variantId')
  const price = numberText(form.price)
  const input: AddLineRequest = {
    variantId: numericId(variant.id),
    quantity: toNumber(form.quantity),
    revision: detail.revision,
    ...(price === '' ? {} : { price }),
  }
  const parsed = parseWith(ZAddLineRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  const priceProblem = price === '' ? null : priceInputProblem(price, detail.currencyCode)
  if (priceProblem) return invalid(priceProblem, 'price')
  return planned({
    failure: ADD_LINE_FAILED,
    run: async () => {
      await api(
        'POST /subscriptions/:id/lines',
        { params: idOf(detail), body: parsed.data },
        { expectStatus: 200 },
      )
      return { message: `「${variantName(variant)}」を追加しました` }
    },
  })
}

/** 商品名 / バリエーション, without Shopify's placeholder variant title. */
export function variantName(variant: Pick<VariantSummary, 'productTitle' | 'title'>): string {
  const title = variant.title?.trim() ?? ''
  if (title === '' || title === 'Default Title') return variant.productTitle
  return `${variant.productTitle} / ${title}`
}

/** DELETE /subscriptions/:id/lines/:lineId. */
export function planRemoveLine(detail: SubscriptionDetail, line: SubscriptionDetailLine): Planned {
  return planned({
    run: async () => {
      await api('DELETE /subscriptions/:contractId/lines/:lineId', {
        params: lineOf(detail, line.id),
        query: { revision: detail.revision },
      })
      return { message: `「${line.title}」を削除しました` }
    },
  })
}

export type LineForm = { quantity: string; manualPrice: boolean; price: string }

/**
 * PUT …/:lineId/quantity, then, only when the merchant ticked 価格を手動で変更する, POST
 * …/price-manually-changed with the revision the quantity change answered (the contract's
 * revision moved with it). When the second step fails the quantity has changed already: the
 * toast says so and the detail is reloaded.
 */
export function planLineQuantity(
  detail: SubscriptionDetail,
  line: SubscriptionDetailLine,
  form: LineForm,
): Planned {
  const quantityInput: LineQuantityRequest = { quantity: toNumber(form.quantity), revision: detail.revision }
  const quantity = parseWith(ZLineQuantityRequest, quantityInput)
  if (!quantity.ok) return invalid(quantity.error, 'quantity')
  const price = numberText(form.price)
  if (form.manualPrice && price === '') return invalid('価格を入力してください', 'price')
  if (form.manualPrice) {
    const check = parseWith(ZPriceManuallyChangedRequest, { lineId: line.id, price })
    if (!check.ok) return invalid(check.error, 'price')
    const priceProblem = priceInputProblem(price, line.currentPrice.currencyCode || detail.currencyCode)
    if (priceProblem) return invalid(priceProblem, 'price')
  }
  return planned({
    run: async () => {
      const answer = await api('PUT /subscriptions/:contractId/:lineId/quantity', {
        params: lineOf(detail, line.id),
        body: quantity.data,
      })
      if (!form.manualPrice)
        return { message: `「${line.title}」の数量を${quantity.data.quantity}に変更しました` }
      const body: PriceManuallyChangedRequest = { lineId: line.id, price, revision: answer.revision }
      try {
        await api('POST /subscription-contracts/:id/price-manually-changed', { params: idOf(detail), body })
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        return { message: `数量は変更しましたが、価格を変更できませんでした：${error.message}`, error: true }
      }
      return { message: `「${line.title}」の数量と価格を変更しました` }
    },
  })
}

/** PUT …/:lineId/product-variant: another variant, keeping the line's price when asked. */
export function planSwapVariant(
  detail: SubscriptionDetail,
  line: SubscriptionDetailLine,
  variant: VariantSummary | null,
  keepPrice: boolean,
): Planned {
  if (!variant) return invalid('変更先の商品を選択してください', 'variantId')
  if (line.variantId !== null && numericId(variant.id) === numericId(line.variantId))
    return invalid('現在と同じ商品です。別の商品を選択してください', 'variantId')
  const input: SwapVariantRequest = { variantId: numericId(variant.id), keepPrice, revision: detail.revision }
  const parsed = parseWith(ZSwapVariantRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  return planned({
    run: async () => {
      await api('PUT /subscriptions/:contractId/:lineId/product-variant', {
        params: lineOf(detail, line.id),
        body: parsed.data,
      })
      return { message: `「${line.title}」を「${variantName(variant)}」に変更しました` }
    },
  })
}

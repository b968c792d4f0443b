import type { AddLineRequest, ContractEditResponse } from '@teiki/contract'
import { cycleUnitPrice, rebasedPolicy } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { idFromGid, lineIdOf, maybeIdFromGid, toGid } from '../../platform/gid.ts'
import {
  editContractThroughDraft,
  type LineUpdateInput,
} from '../../platform/operations/subscription-draft.ts'
import { fetchLinePricing } from '../../platform/operations/subscription-line-pricing.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { contractOrderCount } from '../../sync/order-count.ts'
import type { EditContext } from './edit-flow.ts'
import { type EditDeps, findLine, invalid, type Revisioned, refuseEnded } from './edit-rules.ts'
import { findVariantPrice, markPricesManual } from './edits-repo.ts'
import { requireChargeablePrice } from './price-input.ts'

export const VARIANT_NOT_FOUND = '指定されたバリエーションが見つかりません'
/** The spec's error text for a failed line add (§8), kept verbatim beside the Japanese. */
export const ADD_LINE_FAILED = 'Failed to add line to subscription'

export async function variantPrice(db: DbClient, shop: ShopRow, variantId: string): Promise<string> {
  const price = await findVariantPrice(db, shop.id, variantId)
  if (price === undefined) throw notFound(VARIANT_NOT_FOUND)
  return price
}

export async function addLine(
  { opts, flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: AddLineRequest,
): Promise<ContractEditResponse> {
  const quantity = input.quantity ?? 1
  const label = '商品の追加'
  try {
    await requireChargeablePrice(opts.db, shop, contractId, input.price)
    const price = input.price ?? (await variantPrice(opts.db, shop, input.variantId))
    return await flow.edit(shop, { contractId, revision: input.revision, label }, async (ctx) => {
      refuseEnded(ctx, '商品を追加')
      // The new line follows the contract's plan, as the lines already on it do.
      const planned = ctx.current.lines.nodes.find((l) => l.sellingPlanId)
      let lineId = ''
      await editContractThroughDraft(ctx.client, ctx.gid, async (draft) => {
        lineId = await draft.addLine({
          productVariantId: toGid('ProductVariant', input.variantId),
          quantity,
          currentPrice: price,
          sellingPlanId: planned?.sellingPlanId ?? null,
          sellingPlanName: planned?.sellingPlanName ?? null,
        })
      })
      return {
        event: {
          type: 'line_added',
          payload: { lineId: lineIdOf(lineId), variantId: input.variantId, quantity, price },
        },
      }
    })
  } catch (error) {
    // Spec §5/§8: any failed add reads "Failed to add line to subscription".
    if (error instanceof AppError) {
      throw new AppError(error.code, `商品を追加できませんでした（${ADD_LINE_FAILED}）: ${error.message}`, {
        cause: error,
      })
    }
    throw error
  }
}

export async function removeLine(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  lineId: string,
  revision?: string,
) {
  return flow.edit(shop, { contractId, revision, label: '商品の削除' }, async (ctx) => {
    refuseEnded(ctx, '商品を削除')
    const line = findLine(ctx, lineId)
    if (ctx.current.lines.nodes.length === 1) {
      throw new AppError('CONFLICT', '契約の最後の商品は削除できません。契約を終了する場合は解約してください')
    }
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.removeLine(line.id))
    return {
      event: {
        type: 'line_removed',
        payload: { lineId, variantId: maybeIdFromGid(line.variantId), quantity: line.quantity },
      },
    }
  })
}

export async function lineQuantity(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  lineId: string,
  input: { quantity: number } & Revisioned,
) {
  return flow.edit(shop, { contractId, revision: input.revision, label: '数量の変更' }, async (ctx) => {
    refuseEnded(ctx, '数量を変更')
    const line = findLine(ctx, lineId)
    if (line.quantity === input.quantity) return {}
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.updateLine(line.id, { quantity: input.quantity }),
    )
    return {
      event: {
        type: 'line_quantity_changed',
        payload: { lineId, from: line.quantity, to: input.quantity },
      },
    }
  })
}

export async function priceManuallyChanged(
  { opts, flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { lineId?: string | undefined; price?: string | undefined } & Revisioned,
): Promise<ContractEditResponse> {
  if (input.price !== undefined && input.lineId === undefined) {
    throw invalid('価格を変更する明細ID（lineId）を指定してください')
  }
  await requireChargeablePrice(opts.db, shop, contractId, input.price)
  const mark = { mirror: (tx: DbClient) => markPricesManual(tx, shop.id, contractId) }
  return flow.edit(shop, { contractId, revision: input.revision, label: '価格の変更' }, async (ctx) => {
    if (input.lineId === undefined || input.price === undefined) {
      if (input.lineId !== undefined) findLine(ctx, input.lineId)
      return {
        ...mark,
        event: { type: 'price_marked_manual', payload: { lineId: input.lineId ?? null } },
      }
    }
    refuseEnded(ctx, '価格を変更')
    const line = findLine(ctx, input.lineId)
    const price = input.price
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.updateLine(line.id, { currentPrice: price }),
    )
    return {
      ...mark,
      event: {
        type: 'line_price_changed',
        payload: { lineId: input.lineId, from: line.currentPrice.amount, to: price, manual: true },
      },
    }
  })
}

/**
 * What a variant swap changes on a line (the one rule the contract screen and the batch swap
 * share): the variant, and the price unless it is kept. A price the merchant set stays; a
 * plan price follows the new variant (its price in the mirror).
 */
/** What a swap needs besides the contract: the new variant, its price, and whether the price is the merchant's. */
export type SwapPrice = { variantId: string; keepPrice: boolean; price: string }

/**
 * The draft inputs that put `lineIds` of the contract on another variant. A hand-set price
 * stays. Otherwise each line's pricing policy moves onto the new variant's price with the plan's
 * discounts kept (`rebasedPolicy`), and the line takes the policy's price for the coming cycle,
 * so the next charge (repriced from the policy) and the screen agree; a line without a policy
 * takes the variant's price. The policies are read from the platform (SubscriptionLinePricing).
 */
export async function swapLineInputs(
  db: DbClient,
  shop: ShopRow,
  ctx: EditContext,
  lineIds: readonly string[],
  swap: SwapPrice,
): Promise<Map<string, LineUpdateInput>> {
  const productVariantId = toGid('ProductVariant', swap.variantId)
  if (swap.keepPrice) return new Map(lineIds.map((id) => [id, { productVariantId }]))
  const pricing = await fetchLinePricing(ctx.client, ctx.gid, ctx.current.lines.nodes.length)
  const policies = new Map(pricing?.lines.map((l) => [l.id, l.pricingPolicy]) ?? [])
  const currency = ctx.current.currencyCode
  const cycle = (await contractOrderCount(db, shop.id, idFromGid(ctx.gid))) + 1
  return new Map(
    lineIds.map((id): [string, LineUpdateInput] => {
      const policy = policies.get(id)
      if (!policy) return [id, { productVariantId, currentPrice: swap.price }]
      const rebased = rebasedPolicy(policy, swap.price, currency)
      return [
        id,
        {
          productVariantId,
          currentPrice: cycleUnitPrice(rebased, cycle, currency),
          pricingPolicy: {
            basePrice: rebased.basePrice,
            cycleDiscounts: rebased.cycleDiscounts.map((d) => ({
              afterCycle: d.afterCycle,
              adjustmentType: d.adjustmentType,
              adjustmentValue:
                d.adjustmentType === 'PERCENTAGE'
                  ? { percentage: Number(d.adjustmentValue) }
                  : { fixedValue: d.adjustmentValue },
              computedPrice: d.computedPrice,
            })),
          },
        },
      ]
    }),
  )
}

export async function swapVariant(
  { opts, flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  lineId: string,
  input: { variantId: string; keepPrice: boolean } & Revisioned,
): Promise<ContractEditResponse> {
  const price = await variantPrice(opts.db, shop, input.variantId)
  return flow.edit(shop, { contractId, revision: input.revision, label: '商品の入れ替え' }, async (ctx) => {
    refuseEnded(ctx, '商品を入れ替え')
    const line = findLine(ctx, lineId)
    const swap = { variantId: input.variantId, keepPrice: input.keepPrice, price }
    const inputs = await swapLineInputs(opts.db, shop, ctx, [line.id], swap)
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.updateLine(line.id, inputs.get(line.id)!),
    )
    return {
      event: {
        type: 'line_variant_swapped',
        payload: {
          lineId,
          from: maybeIdFromGid(line.variantId),
          to: input.variantId,
          keepPrice: input.keepPrice,
        },
      },
    }
  })
}

/** Lines: add, remove, quantity, price (marked manual) and variant swap. */
export const lineEdits = { addLine, removeLine, lineQuantity, priceManuallyChanged, swapVariant }

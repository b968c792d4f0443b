import type { DiscountCodesResponse } from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import { idFromGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchContractDiscounts } from '../../platform/operations/subscription-contract-discounts.ts'
import { editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { type EditDeps, type Revisioned, refuseEnded } from './edit-rules.ts'

export async function discountCodes(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
): Promise<DiscountCodesResponse> {
  const label = '割引の取得'
  const ctx = await flow.read(shop, contractId, label)
  let discounts: Awaited<ReturnType<typeof fetchContractDiscounts>>
  try {
    discounts = await fetchContractDiscounts(ctx.client, ctx.gid)
  } catch (error) {
    throw platformError(error, label)
  }
  return {
    contractId,
    discounts: (discounts ?? []).map((d) => ({
      id: idFromGid(d.id),
      title: d.title ?? '',
      usageCount: d.usageCount,
      recurringCycleLimit: d.recurringCycleLimit,
      targetType: d.targetType,
    })),
  }
}

export async function applyDiscountCode(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { discountCode: string } & Revisioned,
) {
  return flow.edit(
    shop,
    { contractId, revision: input.revision, label: `割引コード「${input.discountCode}」の適用` },
    async (ctx) => {
      refuseEnded(ctx, '割引コードを適用')
      await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
        draft.applyDiscountCode(input.discountCode),
      )
      return { event: { type: 'discount_applied', payload: { code: input.discountCode } } }
    },
  )
}

export async function removeDiscount(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  code: string,
  revision?: string,
) {
  return flow.edit(shop, { contractId, revision, label: `割引「${code}」の削除` }, async (ctx) => {
    const discounts = (await fetchContractDiscounts(ctx.client, ctx.gid)) ?? []
    const target = discounts.find((d) => idFromGid(d.id) === code || d.title === code)
    if (!target) throw notFound(`割引「${code}」はこの契約に適用されていません`)
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.removeDiscount(target.id))
    return {
      event: { type: 'discount_removed', payload: { id: idFromGid(target.id), title: target.title } },
    }
  })
}

/**
 * A manual discount on every line for the next `orders` orders (the platform's own discount,
 * subscriptionDraftDiscountAdd with recurringCycleLimit): the retention offers of マイページ.
 * `amount` is per order, in the contract's currency.
 */
export async function addManualDiscount(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { title: string; orders: number } & ({ percent: number } | { amount: number }) & Revisioned,
) {
  return flow.edit(shop, { contractId, revision: input.revision, label: '割引の追加' }, async (ctx) => {
    refuseEnded(ctx, '割引を追加')
    const value =
      'percent' in input
        ? { percentage: input.percent }
        : { fixedAmount: { amount: input.amount, appliesOnEachItem: false as const } }
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.addManualDiscount({
        title: input.title,
        value,
        recurringCycleLimit: input.orders,
        entitledLines: { all: true },
      }),
    )
    return { event: { type: 'discount_added', payload: { title: input.title, orders: input.orders } } }
  })
}

/** Discount codes on the contract: list, apply, remove. */
export const discountEdits = {
  addManualDiscount,
  discountCodes,
  applyDiscountCode,
  removeDiscount,
}

import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf, parseGid } from '../gid.ts'
import type { ContractLineRecord, LinePricingPolicyRecord, PricingPolicy } from '../records.ts'
import { asDiscount } from '../resolvers/drafts.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { findById, nextId } from '../store.ts'
import { lookup, type UserError, userError } from './common.ts'
import { parseDecimal } from './draft-input.ts'
import { openDraft } from './drafts.ts'

/** SubscriptionManualDiscountInput (entitled lines: the emulator applies every discount to all lines). */
type ManualDiscountInput = {
  title?: string | null
  value?: {
    percentage?: number | null
    fixedAmount?: { amount?: number | null; appliesOnEachItem?: boolean | null } | null
  } | null
  recurringCycleLimit?: number | null
}

type LineInput = {
  productVariantId?: string | null
  quantity?: number | null
  currentPrice?: string | number | null
  sellingPlanId?: string | null
  sellingPlanName?: string | null
  pricingPolicy?: PolicyInput | null
}

/** SubscriptionPricingPolicyInput. */
type PolicyInput = {
  basePrice: string | number
  cycleDiscounts: Array<{
    afterCycle: number
    adjustmentType: PricingPolicy['adjustmentType']
    adjustmentValue: { percentage?: number | null; fixedValue?: string | number | null }
    computedPrice: string | number
  }>
}

/** The line's new pricing policy, or the errors (the amounts are the contract's currency). */
function policyChanges(ctx: Context, input: PolicyInput): LinePricingPolicyRecord | UserError[] {
  const errors: UserError[] = []
  const basePrice = parseDecimal(input.basePrice)
  if (!(basePrice >= 0))
    errors.push(
      userError(
        ['input', 'pricingPolicy', 'basePrice'],
        'Base price must be 0 or more',
        'GREATER_THAN_OR_EQUAL_TO',
      ),
    )
  const cycleDiscounts = input.cycleDiscounts.map((d, i): PricingPolicy => {
    const field = ['input', 'pricingPolicy', 'cycleDiscounts', String(i), 'adjustmentValue']
    const { percentage, fixedValue } = d.adjustmentValue
    if (d.afterCycle < 0)
      errors.push(
        userError(
          ['input', 'pricingPolicy', 'cycleDiscounts', String(i), 'afterCycle'],
          'After cycle must be 0 or more',
          'GREATER_THAN_OR_EQUAL_TO',
        ),
      )
    if ((percentage == null) === (fixedValue == null))
      errors.push(userError(field, 'Provide either a percentage or a fixed value', 'INVALID'))
    if (d.adjustmentType === 'PERCENTAGE' && (percentage == null || percentage < 0 || percentage > 100))
      errors.push(userError(field, 'Percentage must be between 0 and 100', 'INVALID'))
    if (d.adjustmentType !== 'PERCENTAGE' && !(parseDecimal(fixedValue ?? -1) >= 0))
      errors.push(userError(field, 'Fixed value must be 0 or more', 'GREATER_THAN_OR_EQUAL_TO'))
    return {
      __typename: 'SellingPlanRecurringPricingPolicy',
      afterCycle: d.afterCycle,
      adjustmentType: d.adjustmentType,
      adjustmentValue:
        d.adjustmentType === 'PERCENTAGE'
          ? { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: percentage ?? 0 }
          : {
              __typename: 'MoneyV2',
              amount: String(parseDecimal(fixedValue ?? 0)),
              currencyCode: ctx.shop.info.currencyCode,
            },
    }
  })
  return errors.length > 0 ? errors : { basePrice, cycleDiscounts }
}

/** The line fields `input` sets, or the errors; a variant swap also refreshes titles and SKU. */
function lineChanges(ctx: Context, input: LineInput): Partial<ContractLineRecord> | UserError[] {
  const errors: UserError[] = []
  const out: Partial<ContractLineRecord> = {}
  if (input.productVariantId != null) {
    const v = lookup(ctx.shop.variants, input.productVariantId, 'ProductVariant')
    const p = v && findById(ctx.shop.products, v.productId)
    if (!v || !p) errors.push(userError(['input', 'productVariantId'], 'Product variant does not exist'))
    else
      Object.assign(out, {
        variantId: v.id,
        productId: p.id,
        title: p.title,
        variantTitle: v.title,
        sku: v.sku,
      })
  }
  if (input.quantity != null) {
    if (input.quantity < 1)
      errors.push(userError(['input', 'quantity'], 'Quantity must be greater than 0', 'GREATER_THAN'))
    else out.quantity = input.quantity
  }
  if (input.currentPrice != null) {
    const price = parseDecimal(input.currentPrice)
    if (!(price >= 0))
      errors.push(userError(['input', 'currentPrice'], 'Price must be 0 or more', 'GREATER_THAN_OR_EQUAL_TO'))
    else out.currentPrice = price
  }
  if (input.sellingPlanId != null) out.sellingPlanId = idOf(input.sellingPlanId, 'SellingPlan')
  if (input.sellingPlanName !== undefined) out.sellingPlanName = input.sellingPlanName
  if (input.pricingPolicy != null) {
    const policy = policyChanges(ctx, input.pricingPolicy)
    if (Array.isArray(policy)) errors.push(...policy)
    else out.pricingPolicy = policy
  }
  return errors.length > 0 ? errors : out
}

const failed = (userErrors: UserError[]) => ({ draft: null, userErrors })

export const draftLineMutations: ResolverMap = {
  Mutation: {
    subscriptionDraftLineAdd: (_s, args: { draftId: string; input: LineInput }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      const changes = lineChanges(ctx, args.input)
      if (Array.isArray(changes)) return { draft, lineAdded: null, userErrors: changes }
      const line: ContractLineRecord = {
        id: nextId(ctx.shop, 'SubscriptionLine'),
        productId: 0,
        variantId: 0,
        title: '',
        variantTitle: null,
        quantity: 1,
        sku: null,
        sellingPlanId: null,
        sellingPlanName: null,
        currentPrice: 0,
        ...changes,
      }
      draft.lines = [...draft.lines, line]
      ctx.store.changed()
      return { draft, lineAdded: line, userErrors: [] }
    },
    subscriptionDraftLineUpdate: (
      _s,
      args: { draftId: string; lineId: string; input: LineInput },
      ctx: Context,
    ) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      const id = idOf(args.lineId, 'SubscriptionLine')
      const index = draft.lines.findIndex((l) => l.id === id)
      if (index < 0)
        return { draft, lineUpdated: null, userErrors: [userError(['lineId'], 'Line does not exist')] }
      const changes = lineChanges(ctx, args.input)
      if (Array.isArray(changes)) return { draft, lineUpdated: null, userErrors: changes }
      const line = { ...draft.lines[index]!, ...changes }
      draft.lines = draft.lines.map((l, i) => (i === index ? line : l))
      ctx.store.changed()
      return { draft, lineUpdated: line, userErrors: [] }
    },
    subscriptionDraftLineRemove: (_s, args: { draftId: string; lineId: string }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      const id = idOf(args.lineId, 'SubscriptionLine')
      const line = draft.lines.find((l) => l.id === id)
      if (!line) {
        const contract = findById(ctx.shop.contracts, draft.contractId)
        const wasThere = contract?.lines.some((l) => l.id === id)
        return {
          draft,
          lineRemoved: null,
          discountsUpdated: [],
          userErrors: [
            wasThere
              ? userError(['lineId'], 'Line has already been removed', 'ALREADY_REMOVED')
              : userError(['lineId'], 'Line does not exist'),
          ],
        }
      }
      draft.lines = draft.lines.filter((l) => l !== line)
      ctx.store.changed()
      return { draft, lineRemoved: line, discountsUpdated: [], userErrors: [] }
    },
    // A manual discount (the platform's own validation: a value of one kind, a percentage of
    // 0–100, a positive amount, a cycle limit of at least 1 when given; all lines only).
    subscriptionDraftDiscountAdd: (
      _s,
      args: { draftId: string; input: ManualDiscountInput },
      ctx: Context,
    ) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      const { value, recurringCycleLimit, title } = args.input
      const refuse = (field: string, message: string) => ({
        draft,
        discountAdded: null,
        userErrors: [userError(['input', field], message, 'INVALID')],
      })
      const percentage = value?.percentage
      const fixed = value?.fixedAmount
      if ((percentage == null) === (fixed == null))
        return refuse('value', 'Value must have either percentage or fixed amount')
      if (percentage != null && (!Number.isInteger(percentage) || percentage < 0 || percentage > 100))
        return refuse('value', 'Value must be between 0 - 100')
      if (fixed != null && !(typeof fixed.amount === 'number' && fixed.amount > 0))
        return refuse('value', 'Amount must be greater than 0')
      if (recurringCycleLimit != null && (!Number.isInteger(recurringCycleLimit) || recurringCycleLimit < 1))
        return refuse('recurringCycleLimit', 'Recurring cycle limit must be greater than 0')
      const discount = {
        id: newId(ctx.shop, 'SubscriptionManualDiscount'),
        title: title ?? '',
        redeemCode: null,
        type: 'MANUAL' as const,
        targetType: 'LINE_ITEM' as const,
        value:
          percentage != null
            ? { percentage }
            : { amount: fixed!.amount!, appliesOnEachItem: fixed!.appliesOnEachItem ?? false },
        recurringCycleLimit: recurringCycleLimit ?? null,
        usageCount: 0,
      }
      draft.discounts = [...draft.discounts, discount]
      ctx.store.changed()
      return { draft, discountAdded: asDiscount(discount), userErrors: [] }
    },
    subscriptionDraftDiscountCodeApply: (_s, args: { draftId: string; redeemCode: string }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      const code = args.redeemCode.trim().toUpperCase()
      const known = extraOf(ctx.shop, ctx.now()).discountCodes.find((d) => d.code === code)
      if (!known) {
        return {
          draft,
          appliedDiscount: null,
          userErrors: [userError(['redeemCode'], 'Discount code is invalid')],
        }
      }
      if (draft.discounts.some((d) => d.title === known.title)) {
        return {
          draft,
          appliedDiscount: null,
          userErrors: [userError(['redeemCode'], 'Discount code is already applied')],
        }
      }
      const discount = {
        id: newId(ctx.shop, 'SubscriptionManualDiscount'),
        title: known.title,
        redeemCode: known.code,
        type: 'CODE_DISCOUNT' as const,
        targetType: 'LINE_ITEM' as const,
        value: known.value,
        recurringCycleLimit: null,
        usageCount: 0,
      }
      draft.discounts = [...draft.discounts, discount]
      ctx.store.changed()
      return { draft, appliedDiscount: discount, userErrors: [] }
    },
    subscriptionDraftDiscountRemove: (_s, args: { draftId: string; discountId: string }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return failed(draft)
      // Either union member's GID names the same discount.
      const id = parseGid(args.discountId)?.id
      const discount = draft.discounts.find((d) => d.id === id)
      if (!discount) {
        return {
          draft,
          discountRemoved: null,
          userErrors: [userError(['discountId'], 'Discount does not exist')],
        }
      }
      draft.discounts = draft.discounts.filter((d) => d !== discount)
      ctx.store.changed()
      return { draft, discountRemoved: asDiscount(discount), userErrors: [] }
    },
  },
}

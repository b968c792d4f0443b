import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import { SUBSCRIPTION_CONTRACT_UPDATE } from './subscription-contract-update.ts'
import { SUBSCRIPTION_DRAFT_COMMIT } from './subscription-draft-commit.ts'
import {
  type ManualDiscountInput,
  SUBSCRIPTION_DRAFT_DISCOUNT_ADD,
} from './subscription-draft-discount-add.ts'
import { SUBSCRIPTION_DRAFT_DISCOUNT_CODE_APPLY } from './subscription-draft-discount-code-apply.ts'
import { SUBSCRIPTION_DRAFT_DISCOUNT_REMOVE } from './subscription-draft-discount-remove.ts'
import { SUBSCRIPTION_DRAFT_LINE_ADD } from './subscription-draft-line-add.ts'
import { SUBSCRIPTION_DRAFT_LINE_REMOVE } from './subscription-draft-line-remove.ts'
import { SUBSCRIPTION_DRAFT_LINE_UPDATE } from './subscription-draft-line-update.ts'
import { SUBSCRIPTION_DRAFT_UPDATE } from './subscription-draft-update.ts'

// Contract edits go through a draft (spec §4): create a draft of the contract, change the
// draft, commit it (one file per mutation beside this one). A draft that is never committed
// changes nothing, so a failure between the steps leaves the contract as it was.

type UserErrors = Array<{ code: string | null; field: string[] | null; message: string }>
type Payload<T> = ({ userErrors: UserErrors } & T) | null

export type AttributeInput = { key: string; value: string }
export type AnchorInput = { type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'; day: number; month?: number | null }
export type PolicyInput = {
  interval: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'
  intervalCount: number
  minCycles?: number | null
  maxCycles?: number | null
  anchors: AnchorInput[]
}

export type DraftInput = {
  paymentMethodId?: string
  billingPolicy?: PolicyInput
  deliveryPolicy?: Omit<PolicyInput, 'minCycles' | 'maxCycles'>
  deliveryMethod?: {
    shipping: {
      address: {
        lastName: string
        firstName: string
        zip: string
        provinceCode: string
        city: string
        address1: string
        address2: string
        phone: string
        countryCode: 'JP'
      }
    }
  }
  note?: string
  customAttributes?: AttributeInput[]
  /** ISO instant; the billing engine moves the schedule in the same draft as its other changes. */
  nextBillingDate?: string
}

export type LineInput = {
  productVariantId: string
  quantity: number
  currentPrice: string
  sellingPlanId?: string | null
  sellingPlanName?: string | null
}

export type LineUpdateInput = {
  productVariantId?: string
  quantity?: number
  currentPrice?: string
  pricingPolicy?: PricingPolicyInput
}

/** SubscriptionPricingPolicyInput: a line's base price and its cycle discounts. */
export type PricingPolicyInput = {
  basePrice: string
  cycleDiscounts: Array<{
    afterCycle: number
    adjustmentType: 'PERCENTAGE' | 'FIXED_AMOUNT' | 'PRICE'
    adjustmentValue: { percentage: number } | { fixedValue: string }
    computedPrice: string
  }>
}

/** One open draft of a contract; every call throws PlatformUserError on userErrors. */
export type Draft = {
  readonly id: string
  /** The draft's attributes as the platform copied them from the contract (its current ones). */
  readonly customAttributes: ReadonlyArray<{ key: string; value: string | null }>
  update(input: DraftInput): Promise<void>
  addLine(input: LineInput): Promise<string>
  updateLine(lineId: string, input: LineUpdateInput): Promise<void>
  removeLine(lineId: string): Promise<void>
  applyDiscountCode(code: string): Promise<void>
  addManualDiscount(input: ManualDiscountInput): Promise<void>
  removeDiscount(discountId: string): Promise<void>
}

export type CommittedContract = {
  id: string
  revisionId: string
  updatedAt: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  nextBillingDate: string | null
}

/**
 * Creates a draft of the contract, lets `edit` change it, and commits it. The draft is only
 * committed when `edit` returns normally; on a userError the draft is abandoned.
 */
export async function editContractThroughDraft(
  client: AdminClient,
  contractId: string,
  edit: (draft: Draft) => Promise<void>,
): Promise<CommittedContract> {
  const created = await client.request<{
    subscriptionContractUpdate: Payload<{
      draft: { id: string; customAttributes: Array<{ key: string; value: string | null }> } | null
    }>
  }>('SubscriptionContractUpdate', SUBSCRIPTION_CONTRACT_UPDATE, { contractId })
  const { draft } = assertNoUserErrors('subscriptionContractUpdate', created.subscriptionContractUpdate)
  if (!draft) throw new Error('subscriptionContractUpdate: no draft returned')
  const draftId = draft.id

  async function run<K extends string>(
    field: K,
    operation: string,
    document: string,
    variables: object,
  ): Promise<Record<string, unknown>> {
    const data = await client.request<Record<K, Payload<Record<string, unknown>>>>(operation, document, {
      draftId,
      ...variables,
    })
    return assertNoUserErrors(field, data[field])
  }

  await edit({
    id: draftId,
    customAttributes: draft.customAttributes ?? [],
    async update(input) {
      await run('subscriptionDraftUpdate', 'SubscriptionDraftUpdate', SUBSCRIPTION_DRAFT_UPDATE, { input })
    },
    async addLine(input) {
      const payload = await run(
        'subscriptionDraftLineAdd',
        'SubscriptionDraftLineAdd',
        SUBSCRIPTION_DRAFT_LINE_ADD,
        {
          input,
        },
      )
      const added = payload.lineAdded as { id: string } | null
      if (!added) throw new Error('subscriptionDraftLineAdd: no line returned')
      return added.id
    },
    async updateLine(lineId, input) {
      await run(
        'subscriptionDraftLineUpdate',
        'SubscriptionDraftLineUpdate',
        SUBSCRIPTION_DRAFT_LINE_UPDATE,
        {
          lineId,
          input,
        },
      )
    },
    async removeLine(lineId) {
      await run(
        'subscriptionDraftLineRemove',
        'SubscriptionDraftLineRemove',
        SUBSCRIPTION_DRAFT_LINE_REMOVE,
        {
          lineId,
        },
      )
    },
    async applyDiscountCode(redeemCode) {
      await run(
        'subscriptionDraftDiscountCodeApply',
        'SubscriptionDraftDiscountCodeApply',
        SUBSCRIPTION_DRAFT_DISCOUNT_CODE_APPLY,
        { redeemCode },
      )
    },
    async addManualDiscount(input) {
      await run(
        'subscriptionDraftDiscountAdd',
        'SubscriptionDraftDiscountAdd',
        SUBSCRIPTION_DRAFT_DISCOUNT_ADD,
        {
          input,
        },
      )
    },
    async removeDiscount(discountId) {
      await run(
        'subscriptionDraftDiscountRemove',
        'SubscriptionDraftDiscountRemove',
        SUBSCRIPTION_DRAFT_DISCOUNT_REMOVE,
        { discountId },
      )
    },
  })

  const committed = await client.request<{
    subscriptionDraftCommit: Payload<{ contract: CommittedContract | null }>
  }>('SubscriptionDraftCommit', SUBSCRIPTION_DRAFT_COMMIT, { draftId })
  const { contract } = assertNoUserErrors('subscriptionDraftCommit', committed.subscriptionDraftCommit)
  if (!contract) throw new Error('subscriptionDraftCommit: no contract returned')
  return contract
}

import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import type { ContractRecord, ContractStatus } from '../records.ts'
import type { DraftRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { findById } from '../store.ts'
import { contractChanged, lookup, parseTime, type UserError, userError } from './common.ts'
import {
  billingPolicyFrom,
  type DeliveryMethodInput,
  deliveryMethodFrom,
  deliveryPolicyFrom,
  parseDecimal,
} from './draft-input.ts'

const statusTopics: Partial<Record<ContractStatus, string>> = {
  ACTIVE: 'subscription_contracts/activate',
  PAUSED: 'subscription_contracts/pause',
  CANCELLED: 'subscription_contracts/cancel',
  FAILED: 'subscription_contracts/fail',
  EXPIRED: 'subscription_contracts/expire',
}

/** The draft behind `draftId` if it can still change; otherwise the payload's errors. */
export function openDraft(ctx: Context, draftId: unknown): DraftRecord | UserError[] {
  const draft = lookup(extraOf(ctx.shop, ctx.now()).drafts, draftId, 'SubscriptionDraft')
  if (!draft) return [userError(['draftId'], 'Draft does not exist')]
  if (draft.committed) return [userError(['draftId'], 'Draft has already been committed', 'COMMITTED')]
  return draft
}

/** A draft is a copy: lines and discounts are new objects, policies are shared (never edited in place). */
function draftOf(ctx: Context, c: ContractRecord): DraftRecord {
  return {
    id: newId(ctx.shop, 'SubscriptionDraft'),
    contractId: c.id,
    committed: false,
    baseRevision: c.revisionId,
    status: c.status,
    nextBillingDate: c.nextBillingDate,
    note: c.note,
    currencyCode: c.currencyCode,
    customerId: c.customerId,
    paymentMethodId: c.paymentMethodId,
    billingPolicy: c.billingPolicy,
    deliveryPolicy: c.deliveryPolicy,
    deliveryPrice: c.deliveryPrice,
    deliveryMethod: c.deliveryMethod,
    customAttributes: c.customAttributes,
    lines: c.lines.map((l) => ({ ...l })),
    discounts: (c.discounts ?? []).map((d) => ({ ...d })),
  }
}

type DraftInput = {
  status?: ContractStatus | null
  paymentMethodId?: string | null
  nextBillingDate?: string | null
  billingPolicy?: Parameters<typeof billingPolicyFrom>[0] | null
  deliveryPolicy?: Parameters<typeof deliveryPolicyFrom>[0] | null
  deliveryPrice?: string | number | null
  deliveryMethod?: DeliveryMethodInput | null
  note?: string | null
  customAttributes?: Array<{ key: string; value: string }> | null
}

/** Validates the whole input first so a rejected update leaves the draft untouched. */
function applyInput(ctx: Context, d: DraftRecord, input: DraftInput): UserError[] {
  const errors: UserError[] = []
  const next: Partial<DraftRecord> = {}
  if (input.status) next.status = input.status
  if (input.note !== undefined) {
    if (input.note !== null && input.note.length > 5000)
      errors.push(
        userError(['input', 'note'], 'Note is too long (maximum is 5000 characters)', 'INVALID_NOTE_LENGTH'),
      )
    else next.note = input.note
  }
  if (input.nextBillingDate) {
    const at = parseTime(input.nextBillingDate)
    if (Number.isNaN(at))
      errors.push(
        userError(['input', 'nextBillingDate'], 'Next billing date is invalid', 'INVALID_BILLING_DATE'),
      )
    else next.nextBillingDate = Math.floor(at / 1000) * 1000
  }
  if (input.deliveryPrice !== undefined && input.deliveryPrice !== null) {
    const price = parseDecimal(input.deliveryPrice)
    if (!(price >= 0))
      errors.push(
        userError(['input', 'deliveryPrice'], 'Delivery price must be 0 or more', 'GREATER_THAN_OR_EQUAL_TO'),
      )
    else next.deliveryPrice = price
  }
  if (input.customAttributes) next.customAttributes = input.customAttributes.map((a) => ({ ...a }))
  if (input.billingPolicy) {
    const p = billingPolicyFrom(input.billingPolicy, ['input', 'billingPolicy'])
    if (Array.isArray(p)) errors.push(...p)
    else next.billingPolicy = p
  }
  if (input.deliveryPolicy) {
    const p = deliveryPolicyFrom(input.deliveryPolicy, ['input', 'deliveryPolicy'])
    if (Array.isArray(p)) errors.push(...p)
    else next.deliveryPolicy = p
  }
  if (input.deliveryMethod) {
    const m = deliveryMethodFrom(input.deliveryMethod, d.deliveryMethod)
    if (Array.isArray(m)) errors.push(...m)
    else next.deliveryMethod = m
  }
  if (input.paymentMethodId) {
    const pm = lookup(ctx.shop.paymentMethods, input.paymentMethodId, 'CustomerPaymentMethod')
    if (!pm) errors.push(userError(['input', 'paymentMethodId'], 'Payment method does not exist'))
    else if (pm.customerId !== d.customerId)
      errors.push(
        userError(
          ['input', 'paymentMethodId'],
          'Payment method belongs to another customer',
          'CUSTOMER_MISMATCH',
        ),
      )
    else next.paymentMethodId = pm.id
  }
  if (errors.length === 0) Object.assign(d, next)
  return errors
}

export const draftMutations: ResolverMap = {
  Mutation: {
    subscriptionContractUpdate: (_s, args: { contractId: string }, ctx: Context) => {
      const c = lookup(ctx.shop.contracts, args.contractId, 'SubscriptionContract')
      if (!c) return { draft: null, userErrors: [userError(['contractId'], 'Contract does not exist')] }
      const draft = draftOf(ctx, c)
      extraOf(ctx.shop, ctx.now()).drafts.push(draft)
      ctx.store.changed()
      return { draft, userErrors: [] }
    },
    subscriptionDraftUpdate: (_s, args: { draftId: string; input: DraftInput }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return { draft: null, userErrors: draft }
      const userErrors = applyInput(ctx, draft, args.input)
      if (userErrors.length === 0) ctx.store.changed()
      return { draft, userErrors }
    },
    subscriptionDraftCommit: (_s, args: { draftId: string }, ctx: Context) => {
      const draft = openDraft(ctx, args.draftId)
      if (Array.isArray(draft)) return { contract: null, userErrors: draft }
      const c = findById(ctx.shop.contracts, draft.contractId)
      if (!c) return { contract: null, userErrors: [userError(['draftId'], 'Contract does not exist')] }
      if (c.revisionId !== draft.baseRevision) {
        return {
          contract: null,
          userErrors: [
            userError(['draftId'], 'The contract changed after this draft was made', 'STALE_CONTRACT'),
          ],
        }
      }
      if (draft.lines.length === 0)
        return {
          contract: null,
          userErrors: [userError(['draftId'], 'A contract needs at least one line', 'INVALID_LINES')],
        }
      const statusTopic = draft.status === c.status ? undefined : statusTopics[draft.status]
      // Everything at once: the contract never shows half a draft.
      Object.assign(c, {
        status: draft.status,
        nextBillingDate: draft.nextBillingDate,
        note: draft.note,
        paymentMethodId: draft.paymentMethodId,
        billingPolicy: draft.billingPolicy,
        deliveryPolicy: draft.deliveryPolicy,
        deliveryPrice: draft.deliveryPrice,
        deliveryMethod: draft.deliveryMethod,
        customAttributes: draft.customAttributes,
        lines: draft.lines.map((l) => ({ ...l })),
        // Applied codes become manual discounts on the contract, titled by their code.
        discounts: draft.discounts.map((d) => ({ ...d, redeemCode: null })),
      } satisfies Partial<ContractRecord>)
      draft.committed = true
      contractChanged(ctx, c, statusTopic ? [statusTopic] : [])
      return { contract: c, userErrors: [] }
    },
  },
}

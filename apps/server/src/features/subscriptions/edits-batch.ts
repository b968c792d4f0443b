import {
  type BatchContract,
  type BatchStep,
  type BatchVariant,
  billingInstantOn,
  moveDateStep,
  removeStep,
  swapStep,
} from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import { lineIdOf, maybeIdFromGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import type { PlatformContract } from '../../platform/operations/contract-fragments.ts'
import { setContractNextBillingDate } from '../../platform/operations/subscription-contract-next-billing-date.ts'
import { editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { CONTRACT_NOT_FOUND, type EditContext, type EditOutcome } from './edit-flow.ts'
import type { EditDeps } from './edit-rules.ts'
import { swapLineInputs, variantPrice } from './edits-lines.ts'
import { isPriceManual } from './edits-repo.ts'

/** One change a batch update (一括更新, features/batch) makes to each of its contracts. */
export type BatchChange =
  | { kind: 'product-update'; from: string; to: string; variant: BatchVariant }
  | { kind: 'product-delete'; variantId: string }
  | { kind: 'next-billing-date-update'; from: string; to: string }

export type BatchEditInput = {
  batchId: string
  change: BatchChange
  /** The batch asked the platform for this contract before (a resume after a crash). */
  attempted: boolean
  /** Records that the platform is about to be asked (the batch's row), before the mutation. */
  beforeApply: () => Promise<void>
}

export type BatchEditResult = { result: 'changed' } | { result: 'skipped'; reason: string }

const LABELS: Record<BatchChange['kind'], string> = {
  'product-update': '商品の一括入れ替え',
  'product-delete': '商品の一括削除',
  'next-billing-date-update': '次回請求日の一括変更',
}

const asBatchContract = (c: PlatformContract): BatchContract => ({
  status: c.status,
  nextBillingDate: c.nextBillingDate,
  lines: c.lines.nodes.map((l) => ({
    id: l.id,
    variantId: maybeIdFromGid(l.variantId),
    sellingPlanId: maybeIdFromGid(l.sellingPlanId),
  })),
})

function stepFor(shop: ShopRow, current: PlatformContract, input: BatchEditInput): BatchStep {
  const contract = asBatchContract(current)
  const { change, attempted } = input
  if (change.kind === 'product-update') {
    return swapStep(contract, { from: change.from, to: change.to, attempted }, change.variant)
  }
  if (change.kind === 'product-delete')
    return removeStep(contract, { variantId: change.variantId, attempted })
  return moveDateStep(contract, { from: change.from, to: change.to, attempted, timeZone: shop.iana_timezone })
}

/**
 * One contract of a batch, with the contract edits' own path (edit-flow.ts: mirror 404, live
 * read, platform, re-read and mirror with one history row) and their rules: a swap keeps a
 * price the merchant set and otherwise takes the new variant's (swapLineInput, as the contract
 * screen's swap), a removal never takes the last line. What to do is decided by
 * @teiki/domain's batch rules from the contract as the platform has it now, so a contract
 * already in the wanted state is never changed again. userErrors → AppError
 * (PLATFORM_USER_ERROR, the platform's words in Japanese); the platform unreachable → thrown
 * as the edit flow maps it.
 */
export async function batchEdit(
  deps: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: BatchEditInput,
): Promise<BatchEditResult> {
  const label = LABELS[input.change.kind]
  let ctx: EditContext
  try {
    ctx = await deps.flow.read(shop, contractId, label)
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      return { result: 'skipped', reason: `${CONTRACT_NOT_FOUND}（削除された可能性があります）` }
    }
    throw error
  }
  const step = stepFor(shop, ctx.current, input)
  if (step.kind === 'skip') return { result: 'skipped', reason: step.reason }
  if (step.kind === 'changed') return { result: 'changed' }
  const price =
    input.change.kind === 'product-update'
      ? {
          keep: await isPriceManual(deps.opts.db, shop.id, contractId),
          amount: await variantPrice(deps.opts.db, shop, input.change.to),
        }
      : null
  await input.beforeApply()
  let outcome: EditOutcome
  try {
    outcome = await apply(deps.opts.db, shop, ctx, step.lineIds, input, price)
  } catch (error) {
    throw platformError(error, label)
  }
  await deps.flow.mirror(shop, ctx, outcome)
  return { result: 'changed' }
}

async function apply(
  db: DbClient,
  shop: ShopRow,
  ctx: EditContext,
  lineIds: string[],
  input: BatchEditInput,
  price: { keep: boolean; amount: string } | null,
): Promise<EditOutcome> {
  const { change, batchId } = input
  const lines = ctx.current.lines.nodes.filter((l) => lineIds.includes(l.id))
  const lineNumbers = lines.map((l) => lineIdOf(l.id))
  if (change.kind === 'product-update' && price) {
    const swap = { variantId: change.to, keepPrice: price.keep, price: price.amount }
    const inputs = await swapLineInputs(db, shop, ctx, lineIds, swap)
    await editContractThroughDraft(ctx.client, ctx.gid, async (draft) => {
      for (const line of lines) await draft.updateLine(line.id, inputs.get(line.id)!)
    })
    return {
      event: {
        type: 'line_variant_swapped',
        payload: { lineIds: lineNumbers, from: change.from, to: change.to, keepPrice: price.keep, batchId },
      },
    }
  }
  if (change.kind === 'product-delete') {
    await editContractThroughDraft(ctx.client, ctx.gid, async (draft) => {
      for (const line of lines) await draft.removeLine(line.id)
    })
    return {
      event: {
        type: 'line_removed',
        payload: { lineIds: lineNumbers, variantId: change.variantId, batchId },
      },
    }
  }
  if (change.kind !== 'next-billing-date-update') throw new Error('batch swap without a price')
  const from = ctx.current.nextBillingDate
  const at = billingInstantOn(change.to, from, shop.iana_timezone)
  await setContractNextBillingDate(ctx.client, ctx.gid, at)
  return {
    event: {
      type: 'next_billing_date_changed',
      payload: { from, to: at.toISOString(), isAdmin: true, batchId },
    },
  }
}

/** The batch edit, bound by createContractEdits like every other edit. */
export const batchEdits = { batchEdit }

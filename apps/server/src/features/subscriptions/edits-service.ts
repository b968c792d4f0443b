import { type ContractEditsOptions, type EditDeps, editDeps } from './edit-rules.ts'
import { batchEdits } from './edits-batch.ts'
import { detailEdits } from './edits-details.ts'
import { discountEdits } from './edits-discounts.ts'
import { lineEdits } from './edits-lines.ts'
import { orderNowEdits } from './edits-order-now.ts'
import { paymentEdits } from './edits-payment.ts'
import { scheduleEdits } from './edits-schedule.ts'

export type { ContractEditsOptions }

type Edit = (deps: EditDeps, ...args: never[]) => unknown
/** The edits with their dependencies bound: what the routes call. */
type Bound<T extends Record<string, Edit>> = {
  [K in keyof T]: T[K] extends (deps: EditDeps, ...args: infer A) => infer R ? (...args: A) => R : never
}

function bind<T extends Record<string, Edit>>(deps: EditDeps, edits: T): Bound<T> {
  const bound: Record<string, unknown> = {}
  for (const [name, edit] of Object.entries(edits)) {
    bound[name] = (...args: never[]) => edit(deps, ...args)
  }
  return bound as Bound<T>
}

/**
 * Every contract edit of spec §7 beside pause/resume/churn, one family per file. Each goes
 * through the edit flow (404 → revision 409 → platform → mirror + history, edit-flow.ts);
 * the checks in the families are the ones the platform would not make or would make with an
 * English message (edit-rules.ts).
 */
export function createContractEdits(opts: ContractEditsOptions) {
  return bind(editDeps(opts), EDITS)
}

const EDITS = {
  ...scheduleEdits,
  ...orderNowEdits,
  ...lineEdits,
  ...detailEdits,
  ...paymentEdits,
  ...discountEdits,
  ...batchEdits,
}

/**
 * The same edits made by a subscriber on マイページ (issue 26): only their own contracts, each
 * history entry marked お客様. Built per request (the flow is a few closures).
 */
export function contractEditsOfCustomer(opts: ContractEditsOptions, customerId: string) {
  return createContractEdits({ ...opts, subscriber: { customerId } })
}

export type ContractEdits = ReturnType<typeof createContractEdits>

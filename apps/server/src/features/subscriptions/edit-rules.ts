import { TERMINAL_STATUSES, toZonedDate } from '@teiki/domain'
import type { OrderNowEngine } from '../../billing/order-now.ts'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { lineIdOf } from '../../platform/gid.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import { createEditFlow, type EditContext, type EditFlow, type EditFlowOptions } from './edit-flow.ts'

// What every family of contract edits (edits-*.ts) shares besides the edit flow: its
// options, the clock, and the rules the platform would not check or would answer in English.

export type ContractEditsOptions = {
  db: Db
  clients: ShopClients
  log?: { warn: (obj: unknown, msg: string) => void }
  /** Clock for "today" checks (tests fix it). */
  now?: () => Date
  /** The app's billing engine: "create order now" charges through its cycles (billing/order-now.ts). */
  billing?: OrderNowEngine
  /** The subscriber these edits are made for (マイページ); absent: the merchant's edits. */
  subscriber?: EditFlowOptions['subscriber']
}

export type Revisioned = { revision?: string | undefined }

/** Handed to each family of edits by createContractEdits. */
export type EditDeps = {
  opts: ContractEditsOptions
  flow: EditFlow
  now: () => Date
  /** Today in Japan time, YYYY-MM-DD. */
  today: () => string
}

export function editDeps(opts: ContractEditsOptions): EditDeps {
  const now = opts.now ?? (() => new Date())
  return { opts, flow: createEditFlow(opts), now, today: () => toZonedDate(now()) }
}

const LINE_NOT_FOUND = '指定された商品（明細）がこの契約に見つかりません'

/** 409 on a cancelled or expired contract: `what` is the edit, 「次回請求日を変更」. */
export function refuseEnded(ctx: EditContext, what: string): void {
  if (TERMINAL_STATUSES.has(ctx.current.status)) {
    const state = ctx.current.status === 'CANCELLED' ? '解約済み' : '期限切れ'
    throw new AppError('CONFLICT', `${state}の契約は${what}できません`)
  }
}

/** The contract's line by its numeric id; 404 when the contract has no such line. */
export function findLine(ctx: EditContext, lineId: string) {
  const line = ctx.current.lines.nodes.find((l) => lineIdOf(l.id) === lineId)
  if (!line) throw notFound(LINE_NOT_FOUND)
  return line
}

export function invalid(message: string): AppError {
  return new AppError('INVALID_INPUT', message)
}

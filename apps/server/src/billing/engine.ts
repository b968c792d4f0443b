import type { BillingSettings } from '@teiki/contract'
import {
  addCalendarDays,
  DELIVERY_DATE_ATTRIBUTE,
  deliveryDateFor,
  deliveryDateOf,
  formatDateJa,
  formatMoney,
  type LineRepricing,
  nextBillingDate,
  repricedLines,
  TERMINAL_STATUSES,
  toZonedDate,
  withAttribute,
  zonedDayStart,
} from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../db/pool.ts'
import type { ShopRow } from '../features/shops/repo.ts'
import { ORDER_COUNT_SQL } from '../features/subscriptions/order-count.ts'
import type { ShopClients } from '../features/subscriptions/shop-client.ts'
import { lockContract, upsertBillingAttempt, upsertOrder } from '../features/webhooks/repo.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { idFromGid, lineIdOf, maybeIdFromGid, toGid } from '../platform/gid.ts'
import { sendPaymentMethodUpdateEmail } from '../platform/operations/customer-payment-method-send-update-email.ts'
import type { PlatformBillingAttempt } from '../platform/operations/subscription-billing-attempt.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import { fetchSubscriptionContract } from '../platform/operations/subscription-contract.ts'
import { setContractNextBillingDate } from '../platform/operations/subscription-contract-next-billing-date.ts'
import {
  activateSubscriptionContract,
  type ContractStatusResult,
  cancelSubscriptionContract,
  pauseSubscriptionContract,
} from '../platform/operations/subscription-contract-status.ts'
import type { PlatformContract } from '../platform/operations/subscription-contracts-page.ts'
import {
  type CommittedContract,
  editContractThroughDraft,
} from '../platform/operations/subscription-draft.ts'
import { fetchLinePricing } from '../platform/operations/subscription-line-pricing.ts'
import { appendContractEvent, appendContractEvents, upsertContracts } from '../sync/contracts-repo.ts'
import { billingAttemptRecord, contractRecord, lineRecords, orderRecord } from '../sync/records.ts'
import {
  type AttemptStart,
  CYCLE_COLUMNS,
  type CycleRow,
  type CycleStatus,
  claimRetry,
  findCycle,
  findCycleOfAttempt,
  recordRefusal,
  startAttempt,
} from './cycles.ts'
import { expireSubscriptionContract, fetchBillingAttempts } from './platform.ts'
import { getBillingSettings } from './settings.ts'

/** Failures the inventory schedule handles (SubscriptionBillingAttemptErrorCode). */
export const INVENTORY_ERROR_CODES: ReadonlySet<string> = new Set([
  'INSUFFICIENT_INVENTORY',
  'INVENTORY_ALLOCATIONS_NOT_FOUND',
])

export const ORDER_MAIL_SUBJECT = 'ご注文ありがとうございます（定期便）'
/** The opening lines of every mail to a customer. */
const greeting = (shop: ShopRow, displayName: string): string[] => [
  `${displayName || 'お客様'} 様`,
  '',
  `${shop.name || 'ストア'}をご利用いただきありがとうございます。`,
]

/** The customer's mail when a charge fails, and when dunning ends the cycle. */
export const FAILURE_MAIL_SUBJECT = '定期便のご注文を承れませんでした'

/** Where jobs come in: the app process plugs pg-boss here; the CLI and tests run without. */
export type BillingScheduler = {
  /** Check the attempt later, in case its webhook never arrives. */
  pollLater(shopId: string, cycleId: string, attemptNo: number): Promise<void>
  /** Run dunning retry `attemptNo + 1` of the cycle at `at`. */
  retryAt(shopId: string, cycleId: string, attemptNo: number, at: Date): Promise<void>
}

export type BillingLog = {
  info?: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export type BillingEngineOptions = {
  db: Db
  clients: ShopClients
  mailer: Mailer
  log?: BillingLog
  scheduler?: BillingScheduler
}

/** What became of an attempt's cycle: its status, 'pending' (not ready), or 'ignored' (not ours). */
export type OutcomeResult = CycleStatus | 'pending' | 'ignored'

const silent: BillingLog = { warn: () => {}, error: () => {} }

const SHOP_COLUMNS = `id::text, domain, name, secret_hash, access_token, scopes, currency_code, iana_timezone,
  primary_domain_url, shopify_plan, app_plan, synced_at`

export async function loadShopById(db: DbClient, shopId: string): Promise<ShopRow | null> {
  const { rows } = await db.query<ShopRow>(
    `select ${SHOP_COLUMNS} from shops where id = $1 and uninstalled_at is null`,
    [shopId],
  )
  return rows[0] ?? null
}

type Policy = Parameters<typeof nextBillingDate>[1]

/** The contract's billing policy as the domain schedules it. */
function policyOf(contract: PlatformContract): Policy {
  const p = contract.billingPolicy as PlatformContract['billingPolicy'] & {
    anchors?: Array<{
      type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
      day: number
      month?: number | null
      cutoffDay?: number | null
    }>
  }
  return {
    interval: p.interval as Policy['interval'],
    intervalCount: p.intervalCount,
    anchors: (p.anchors ?? []).map((a) => ({
      type: a.type,
      day: a.day,
      month: a.month ?? null,
      cutoffDay: a.cutoffDay ?? null,
    })),
  }
}

const lastDayOfMonth = (date: string): number => {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).getUTCDate()
}

/**
 * The day of month a monthly schedule without anchors aims at. A contract that started on the
 * 31st and was billed on 30 November (the month has no 31st) is still a "31st" contract, so
 * December bills on the 31st again: the clamp of a short month must not stick.
 */
function intendedDayOf(policy: Policy, dueDate: string, createdDate: string): number | undefined {
  if (policy.anchors.length > 0 || (policy.interval !== 'MONTH' && policy.interval !== 'YEAR'))
    return undefined
  const dueDay = Number(dueDate.slice(8))
  const createdDay = Number(createdDate.slice(8))
  return dueDay === lastDayOfMonth(dueDate) && createdDay > dueDay ? createdDay : dueDay
}

/** The next billing instant after the cycle due at `dueAt` (the schedule, not the charge time, is the anchor). */
export function scheduleAfter(contract: PlatformContract, dueAt: Date, timeZone: string): Date {
  const policy = policyOf(contract)
  const intendedDay = intendedDayOf(
    policy,
    toZonedDate(dueAt, timeZone),
    toZonedDate(contract.createdAt, timeZone),
  )
  return nextBillingDate(dueAt, policy, timeZone, intendedDay === undefined ? undefined : { intendedDay })
}

/** Dunning retries run at the shop's billing hour, `days` shop-local days after `now`. */
export function retryInstant(now: Date, days: number, billingHour: number, timeZone: string): Date {
  const date = addCalendarDays(toZonedDate(now, timeZone), days)
  return new Date(zonedDayStart(date, timeZone).getTime() + billingHour * 3_600_000)
}

type Event = { type: string; occurredAt: Date | string; payload: Record<string, unknown> }

/**
 * The contract as read once before the follow-up mutations, with each mutation's answer
 * (status, next billing date, revision, updatedAt; the attributes a draft committed) laid over
 * it: what the mirror gets, without a second 75-point read per charge. The upsert keeps the
 * newer updatedAt, so a webhook that mirrored a later state wins.
 */
function tracked(read: PlatformContract | null) {
  let current = read
  const newer = (updatedAt: string) =>
    current !== null && Date.parse(updatedAt) >= Date.parse(current.updatedAt)
  return {
    status(result: ContractStatusResult) {
      if (current && newer(result.updatedAt)) {
        current = {
          ...current,
          status: result.status,
          nextBillingDate: result.nextBillingDate,
          updatedAt: result.updatedAt,
          revisionId: result.revisionId,
        }
      }
    },
    committed(result: CommittedContract, patch: Partial<PlatformContract>) {
      if (current && newer(result.updatedAt)) {
        current = { ...current, ...patch, updatedAt: result.updatedAt, revisionId: result.revisionId }
      }
    },
    contract: () => current,
  }
}

export type BillingEngine = ReturnType<typeof createBillingEngine>

/**
 * Follows billing attempts to their outcome and applies it. Every path that learns an outcome
 * (the billing webhook, the poll job, a CLI run polling) calls `onAttemptOutcome`; they may
 * race. Platform follow-ups are computed from the cycle row (its due instant), not from the
 * moment they run, so repeating them sets the same values; the cycle row's conditional status
 * update in the final transaction lets exactly one of them write the history, count the run
 * and send the mail.
 */
export function createBillingEngine(opts: BillingEngineOptions) {
  const { clients, mailer } = opts
  const { db } = opts
  const log = opts.log ?? silent
  let scheduler = opts.scheduler

  const clientFor = (shop: ShopRow): AdminClient => clients.clientFor(shop)

  async function orderCount(tx: DbClient, shopId: string, contractId: string): Promise<number> {
    const { rows } = await tx.query<{ count: number }>(
      `select ${ORDER_COUNT_SQL} as count from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
      [shopId, contractId],
    )
    return rows[0]?.count ?? 0
  }

  /**
   * The final transaction of an outcome: claims the row's move (false when another path
   * already settled it: then nothing is written), mirrors the re-read contract with its
   * status events, appends the history and counts the run.
   */
  async function commit(
    shop: ShopRow,
    row: CycleRow,
    contract: PlatformContract | null,
    move: { set: string; values: unknown[] },
    counter: 'succeeded' | 'failed',
    events: Event[],
    statusExtra: Record<string, unknown> = {},
  ): Promise<boolean> {
    return withTransaction(db, async (tx) => {
      await lockContract(tx, shop.id, row.contract_id)
      // move.set numbers its parameters from $4.
      const claimed = await tx.query(
        `update billing_cycles set ${move.set}, updated_at = now()
         where shop_id = $1 and id = $2 and attempt_no = $3 and status = 'attempting'`,
        [shop.id, row.id, row.attempt_no, ...move.values],
      )
      if (claimed.rowCount !== 1) return false
      if (contract) {
        const changes = await upsertContracts(tx, shop.id, [contractRecord(contract)], lineRecords(contract))
        await appendContractEvents(tx, shop.id, 'billing', changes, statusExtra)
      }
      for (const e of events) {
        await appendContractEvent(tx, shop.id, 'billing', { contractId: row.contract_id, ...e })
      }
      if (row.run_id) {
        await tx.query(`update billing_runs set ${counter} = ${counter} + 1 where shop_id = $1 and id = $2`, [
          shop.id,
          row.run_id,
        ])
      }
      return true
    })
  }

  /** True once the merchant set a price by hand (price-manually-changed): the prices are theirs. */
  async function pricesAreManual(shopId: string, contractId: string): Promise<boolean> {
    const { rows } = await db.query<{ manual: boolean }>(
      `select price_manually_changed_at is not null as manual from subscription_contracts
       where shop_id = $1 and id = $2`,
      [shopId, contractId],
    )
    return rows[0]?.manual ?? false
  }

  /** The contract's lines with their pricing policies, from the platform; null when it is gone. */
  async function readLinePricing(shop: ShopRow, contractId: string, knownLines: number) {
    const gid = toGid('SubscriptionContract', contractId)
    // The shared selection reads up to 20 lines: a full page may hide more.
    const priced = await fetchLinePricing(clientFor(shop), gid, knownLines >= 20 ? 100 : knownLines)
    if (priced && !priced.complete)
      log.warn({ contract: contractId }, 'contract has more lines than repriced')
    return priced
  }

  /**
   * Before a cycle's charge (once per cycle, by whoever claimed it): the lines onto their
   * pricing policies' price for the cycle about to be charged. The platform charges each line's
   * currentPrice and never moves it; a contract comes from checkout with its first order's
   * price, and a merchant's edit may reset a line. The lines as read (with the prices the
   * charge carries) are kept on the cycle row, and after a success the next cycle's prices are
   * worked out from them (settleSuccess), so each charge costs one read of the policies.
   * Returns the changes made. Never throws: when the platform refuses or fails, the charge goes
   * ahead at the current price (what it would be without this step) and the failure is logged.
   */
  async function priceCharge(shop: ShopRow, row: CycleRow): Promise<LineRepricing[]> {
    try {
      return await repriceForCharge(shop, row)
    } catch (error) {
      log.warn({ err: error, contract: row.contract_id }, 'repricing before the charge failed')
      return []
    }
  }

  async function repriceForCharge(shop: ShopRow, row: CycleRow): Promise<LineRepricing[]> {
    // One round trip on the charge path: the manual mark, the lines known and the order count.
    const { rows } = await db.query<{ manual: boolean; lines: number; orders: number }>(
      `select c.price_manually_changed_at is not null as manual,
         (select count(*) from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id)::int
           as lines,
         ${ORDER_COUNT_SQL} as orders
       from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
      [shop.id, row.contract_id],
    )
    const known = rows[0]
    if (!known || known.manual || known.lines === 0) return []
    const priced = await readLinePricing(shop, row.contract_id, known.lines)
    if (!priced) return []
    const cycle = known.orders + 1
    const changes = repricedLines(priced.lines, cycle, priced.currencyCode)
    const charged = new Map(changes.map((r) => [r.lineId, r.to]))
    const kept = priced.lines.map((l) => ({ ...l, currentPrice: charged.get(l.id) ?? l.currentPrice }))
    const committed =
      changes.length === 0
        ? null
        : await editContractThroughDraft(
            clientFor(shop),
            toGid('SubscriptionContract', row.contract_id),
            async (draft) => {
              for (const r of changes) await draft.updateLine(r.lineId, { currentPrice: r.to })
            },
          )
    await withTransaction(db, async (tx) => {
      await lockContract(tx, shop.id, row.contract_id)
      await tx.query('update billing_cycles set line_pricing = $3 where shop_id = $1 and id = $2', [
        shop.id,
        row.id,
        JSON.stringify(kept),
      ])
      if (!committed) return
      for (const r of changes) {
        await tx.query(
          'update subscription_lines set current_price = $4 where shop_id = $1 and contract_id = $2 and id = $3',
          [shop.id, row.contract_id, r.lineId, r.to],
        )
      }
      await tx.query(
        `update subscription_contracts set revision_id = $3, updated_at = $4
         where shop_id = $1 and id = $2 and updated_at <= $4`,
        [shop.id, row.contract_id, committed.revisionId, committed.updatedAt],
      )
      for (const r of changes) {
        await appendContractEvent(tx, shop.id, 'billing', {
          contractId: row.contract_id,
          type: 'line_price_changed',
          payload: { lineId: lineIdOf(r.lineId), from: r.from, to: r.to, cycle, source: 'pricing_policy' },
        })
      }
    })
    return changes
  }

  /**
   * The line prices cycle `cycle` (the next one, after a success) must carry that differ from
   * the contract's current ones. The policies come from the cycle row (read before the charge)
   * when it covers every line the contract has now, else from the platform.
   */
  async function repricingAfter(
    shop: ShopRow,
    row: CycleRow,
    contract: PlatformContract,
    cycle: number,
  ): Promise<LineRepricing[]> {
    if (await pricesAreManual(shop.id, row.contract_id)) return []
    const stored = new Map((row.line_pricing ?? []).map((l) => [l.id, l]))
    const lines = contract.lines.nodes
    if (lines.length > 0 && lines.length < 20 && lines.every((l) => stored.has(l.id))) {
      const current = lines.map((l) => ({ ...stored.get(l.id)!, currentPrice: l.currentPrice.amount }))
      return repricedLines(current, cycle, contract.currencyCode)
    }
    const priced = await readLinePricing(shop, row.contract_id, lines.length)
    return priced ? repricedLines(priced.lines, cycle, priced.currencyCode) : []
  }

  async function settleSuccess(
    shop: ShopRow,
    row: CycleRow,
    attempt: PlatformBillingAttempt,
    settings: BillingSettings,
  ): Promise<CycleStatus> {
    const order = attempt.order!
    const client = clientFor(shop)
    const gid = toGid('SubscriptionContract', row.contract_id)
    const tz = shop.iana_timezone
    // The order first: the order count (and so maxCycles) follows from the orders mirror.
    await upsertOrder(db, shop.id, orderRecord(order, row.contract_id))
    const cycle = await orderCount(db, shop.id, row.contract_id)

    const before = await fetchSubscriptionContract(client, gid)
    const state = tracked(before)
    let nextAt: Date | null = null
    let delivery: string | null = null
    let expired = false
    let repriced: LineRepricing[] = []
    if (before && !TERMINAL_STATUSES.has(before.status)) {
      if (before.status === 'FAILED') state.status(await activateSubscriptionContract(client, gid))
      const maxCycles = before.billingPolicy.maxCycles
      if (maxCycles !== null && maxCycles !== undefined && cycle >= maxCycles) {
        state.status(await expireSubscriptionContract(client, gid))
        expired = true
      } else {
        nextAt = scheduleAfter(before, row.due_at, tz)
        if (!before.nextBillingDate || new Date(before.nextBillingDate).getTime() !== nextAt.getTime()) {
          state.status(await setContractNextBillingDate(client, gid, nextAt))
        }
        // The delivery date moves with the schedule only on contracts that carry one: a
        // contract without お届け予定日 belongs to a shop that does not promise dates.
        const currentDelivery = deliveryDateOf(before.customAttributes)
        let attributes: ReturnType<typeof withAttribute> | null = null
        if (currentDelivery !== null) {
          delivery = deliveryDateFor(nextAt, settings.deliveryPrepDays, tz)
          if (delivery !== currentDelivery) {
            attributes = withAttribute(before.customAttributes, DELIVERY_DATE_ATTRIBUTE, delivery)
          }
        }
        // The next charge is cycle + 1: its prices from the lines' pricing policies.
        repriced = await repricingAfter(shop, row, before, cycle + 1)
        // One draft for both: a commit is three calls however much it changes.
        if (attributes !== null || repriced.length > 0) {
          const committed = await editContractThroughDraft(client, gid, async (draft) => {
            if (attributes !== null) await draft.update({ customAttributes: attributes })
            for (const r of repriced) await draft.updateLine(r.lineId, { currentPrice: r.to })
          })
          const prices = new Map(repriced.map((r) => [r.lineId, r.to]))
          state.committed(committed, {
            ...(attributes !== null ? { customAttributes: attributes } : {}),
            ...(prices.size > 0
              ? {
                  lines: {
                    ...before.lines,
                    nodes: before.lines.nodes.map((l) => {
                      const to = prices.get(l.id)
                      return to === undefined ? l : { ...l, currentPrice: { ...l.currentPrice, amount: to } }
                    }),
                  },
                }
              : {}),
          })
        }
      }
    }
    const after = state.contract()
    const amount = order.totalPriceSet.shopMoney
    const won = await commit(
      shop,
      row,
      after,
      {
        set: `status = 'succeeded', order_id = $4, amount = $5, currency_code = $6, cycle_index = $7,
          settled_at = now(), next_retry_at = null`,
        values: [idFromGid(order.id), amount.amount, amount.currencyCode, cycle],
      },
      'succeeded',
      [
        {
          type: 'billed',
          occurredAt: order.createdAt,
          payload: {
            amount: amount.amount,
            currencyCode: amount.currencyCode,
            cycle,
            orderId: idFromGid(order.id),
            attemptId: idFromGid(attempt.id),
            cycleDate: row.cycle_date,
            nextBillingDate: nextAt?.toISOString() ?? null,
            nextDeliveryDate: delivery,
            expired,
          },
        },
        ...repriced.map((r) => ({
          type: 'line_price_changed',
          occurredAt: order.createdAt,
          payload: {
            lineId: lineIdOf(r.lineId),
            from: r.from,
            to: r.to,
            cycle: cycle + 1,
            source: 'pricing_policy',
          },
        })),
      ],
    )
    if (won) await mailOrder(shop, row, { orderName: order.name, amount, nextAt, delivery, expired })
    return 'succeeded'
  }

  async function settleFailure(
    shop: ShopRow,
    row: CycleRow,
    attempt: PlatformBillingAttempt,
    settings: BillingSettings,
    now: Date,
  ): Promise<CycleStatus> {
    const code = attempt.errorCode ?? 'UNKNOWN'
    const message = attempt.errorMessage ?? ''
    const kind = INVENTORY_ERROR_CODES.has(code) ? 'inventory' : 'payment'
    const limit = kind === 'inventory' ? settings.inventoryRetryAttempts : settings.retryAttempts
    const days = kind === 'inventory' ? settings.inventoryRetryIntervalDays : settings.retryIntervalDays
    const client = clientFor(shop)
    const gid = toGid('SubscriptionContract', row.contract_id)
    const failedEvent = (willRetryAt: Date | null, extra: Record<string, unknown> = {}): Event => ({
      type: 'billing_failed',
      occurredAt: attempt.completedAt ?? now,
      payload: {
        code,
        message,
        // 1 = the first charge of the cycle, 2 = its first retry, …
        attempt: row.attempt_no + 1,
        willRetryAt: willRetryAt?.toISOString() ?? null,
        attemptId: idFromGid(attempt.id),
        kind,
        ...extra,
      },
    })

    if (row.attempt_no < limit) {
      const at = retryInstant(now, days, settings.billingHour, shop.iana_timezone)
      // FAILED status and lastPaymentStatus are the platform's: mirror them as it reports them.
      const contract = await fetchSubscriptionContract(client, gid)
      const won = await commit(
        shop,
        row,
        contract,
        {
          set: `status = 'retry_scheduled', next_retry_at = $4, failure_kind = $5, error_code = $6,
            error_message = $7`,
          values: [at, kind, code, message],
        },
        'failed',
        [failedEvent(at)],
      )
      if (won) {
        await scheduler?.retryAt(shop.id, row.id, row.attempt_no, at).catch((error: unknown) => {
          // The daily run picks the retry up from next_retry_at anyway.
          log.warn({ err: error, cycle: row.id }, 'billing retry job not scheduled')
        })
        // A card the customer can fix: on the cycle's first failure, the platform's secure
        // link to update it, so the retry can succeed.
        const updateLinkSent =
          kind === 'payment' && row.attempt_no === 0 && contract
            ? await sendUpdateLink(shop, row, contract)
            : false
        await mailFailure(shop, row, { kind, retryAt: at, action: null, nextAt: null, updateLinkSent })
      }
      return 'retry_scheduled'
    }

    // The last retry failed: the shop's final action.
    const action = kind === 'inventory' ? settings.inventoryFinalAction : settings.finalAction
    const before = await fetchSubscriptionContract(client, gid)
    const state = tracked(before)
    const events: Event[] = [failedEvent(null, { finalAction: action })]
    let skippedTo: Date | null = null
    if (before && !TERMINAL_STATUSES.has(before.status)) {
      if (action === 'CANCEL') {
        state.status(await cancelSubscriptionContract(client, gid))
      } else if (action === 'PAUSE') {
        if (before.status !== 'PAUSED') state.status(await pauseSubscriptionContract(client, gid))
      } else {
        const nextAt = scheduleAfter(before, row.due_at, shop.iana_timezone)
        skippedTo = nextAt
        if (!before.nextBillingDate || new Date(before.nextBillingDate).getTime() !== nextAt.getTime()) {
          state.status(await setContractNextBillingDate(client, gid, nextAt))
        }
        events.push({
          type: 'next_billing_date_changed',
          occurredAt: now,
          payload: { from: row.due_at.toISOString(), to: nextAt.toISOString(), source: 'dunning' },
        })
      }
    }
    const after = state.contract()
    const won = await commit(
      shop,
      row,
      after,
      {
        set: `status = 'failed', final_action = $4, failure_kind = $5, error_code = $6, error_message = $7,
          next_retry_at = null, settled_at = now()`,
        values: [action, kind, code, message],
      },
      'failed',
      events,
      { source: 'dunning' },
    )
    // A contract that had already ended meanwhile: nothing was done to it, nothing to tell.
    const acted = before !== null && !TERMINAL_STATUSES.has(before.status)
    if (won && acted) {
      await mailFailure(shop, row, { kind, retryAt: null, action, nextAt: skippedTo, updateLinkSent: false })
    }
    return 'failed'
  }

  /**
   * Asks the platform to mail the customer its link for updating the contract's payment
   * method (customerPaymentMethodSendUpdateEmail), and records it in the history. False when
   * the contract has no payment method or the platform refused; never throws.
   */
  async function sendUpdateLink(shop: ShopRow, row: CycleRow, contract: PlatformContract): Promise<boolean> {
    const methodId = contract.customerPaymentMethod?.id
    if (typeof methodId !== 'string') return false
    try {
      await sendPaymentMethodUpdateEmail(clientFor(shop), methodId)
      await appendContractEvent(db, shop.id, 'billing', {
        contractId: row.contract_id,
        type: 'payment_update_email_sent',
        payload: { paymentMethodId: idFromGid(methodId), cycleDate: row.cycle_date },
      })
      return true
    } catch (error) {
      log.warn({ err: error, cycle: row.id }, 'payment method update e-mail not sent')
      return false
    }
  }

  /** The customer's address and name, through the contract. */
  async function customerOf(shopId: string, contractId: string) {
    const { rows } = await db.query<{ email: string | null; display_name: string }>(
      `select cu.email, cu.display_name from subscription_contracts c
       join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
       where c.shop_id = $1 and c.id = $2`,
      [shopId, contractId],
    )
    return rows[0] ?? null
  }

  /**
   * Tells the customer a charge failed: what happens next (the retry's date, or the shop's
   * final action) and what to do (check the payment method; nothing for stock). Sent by the
   * path that settled the failure (the cycle row's conditional update), so once.
   */
  async function mailFailure(
    shop: ShopRow,
    row: CycleRow,
    info: {
      kind: 'payment' | 'inventory'
      retryAt: Date | null
      action: BillingSettings['finalAction'] | null
      nextAt: Date | null
      /** The platform's update link went out just before (its own mail). */
      updateLinkSent: boolean
    },
  ): Promise<void> {
    try {
      const to = await customerOf(shop.id, row.contract_id)
      if (!to?.email) return
      const tz = shop.iana_timezone
      const lines = [
        ...greeting(shop, to.display_name),
        info.kind === 'inventory'
          ? `${formatDateJa(row.due_at, tz)}の定期便は、商品の在庫が不足しているためご注文を承れませんでした。`
          : `${formatDateJa(row.due_at, tz)}の定期便は、ご登録のお支払い方法で決済を完了できなかったため、ご注文を承れませんでした。`,
        '',
      ]
      if (info.retryAt) {
        lines.push(`${formatDateJa(info.retryAt, tz)}にあらためてご注文をお受けします。`)
        if (info.kind === 'payment') {
          lines.push('それまでに、カードの有効期限やご利用限度額など、お支払い方法をご確認ください。')
          if (info.updateLinkSent) {
            lines.push('お支払い方法を変更するためのご案内を、別のメールでお送りしました。')
          }
        }
      } else if (info.action === 'CANCEL' || info.action === 'PAUSE') {
        // "Even on retrying" only when there were retries (a shop may configure none).
        const because = row.attempt_no > 0 ? '再度のお手続きでもご注文を承れなかったため' : 'このため'
        const done = info.action === 'CANCEL' ? '解約いたしました' : '一時停止いたしました'
        lines.push(`${because}、定期便を${done}。`)
      } else if (info.action === 'SKIP') {
        lines.push('今回のお届けはお休みとなります。')
        if (info.nextAt) lines.push(`次回ご請求日: ${formatDateJa(info.nextAt, tz)}`)
      }
      lines.push('', 'ご不明な点がございましたら、ストアまでお問い合わせください。')
      await mailer.send({
        shopId: shop.id,
        to: to.email,
        subject: FAILURE_MAIL_SUBJECT,
        text: lines.join('\n'),
      })
    } catch (error) {
      log.warn({ err: error, cycle: row.id }, 'failure mail not sent')
    }
  }

  async function mailOrder(
    shop: ShopRow,
    row: CycleRow,
    info: {
      orderName: string
      amount: { amount: string; currencyCode: string }
      nextAt: Date | null
      delivery: string | null
      expired: boolean
    },
  ): Promise<void> {
    try {
      // At most once: the mark is taken before sending (a crash in between loses the mail
      // rather than sending it twice; mail_outbox keeps what was sent).
      const { rows } = await db.query<{ email: string | null; display_name: string }>(
        `with marked as (
           update billing_cycles set mailed_at = now()
           where shop_id = $1 and id = $2 and mailed_at is null returning contract_id
         )
         select cu.email, cu.display_name from marked m
         join subscription_contracts c on c.shop_id = $1 and c.id = m.contract_id
         join customers cu on cu.shop_id = $1 and cu.id = c.customer_id`,
        [shop.id, row.id],
      )
      const to = rows[0]
      if (!to?.email) return
      const tz = shop.iana_timezone
      const lines = [
        ...greeting(shop, to.display_name),
        '定期便のご注文を承りました。',
        '',
        `ご注文番号: ${info.orderName}`,
        `ご請求金額: ${formatMoney(info.amount.amount, info.amount.currencyCode)}`,
      ]
      if (info.expired) lines.push('', '今回のお届けで定期便は最終回となります。')
      else if (info.nextAt) lines.push(`次回ご請求日: ${formatDateJa(info.nextAt, tz)}`)
      if (info.delivery) lines.push(`次回お届け予定日: ${formatDateJa(info.delivery, tz)}`)
      lines.push('', '今後ともよろしくお願いいたします。')
      const address = to.email
      await mailer.send({ shopId: shop.id, to: address, subject: ORDER_MAIL_SUBJECT, text: lines.join('\n') })
    } catch (error) {
      log.warn({ err: error, cycle: row.id }, 'order mail not sent')
    }
  }

  /**
   * Applies a ready attempt's outcome to its cycle. Not ours (no cycle row) → 'ignored'; not
   * ready → 'pending'; a cycle another path settled → its status, with nothing done again.
   */
  async function onAttemptOutcome(
    shopOrId: ShopRow | string,
    attempt: PlatformBillingAttempt,
    options: { now?: Date } = {},
  ): Promise<OutcomeResult> {
    const shop = typeof shopOrId === 'string' ? await loadShopById(db, shopOrId) : shopOrId
    if (!shop) return 'ignored'
    const attemptId = idFromGid(attempt.id)
    const contractId = idFromGid(attempt.subscriptionContract.id)
    const row = await findCycleOfAttempt(db, shop.id, {
      id: attemptId,
      idempotencyKey: attempt.idempotencyKey,
      contractId,
    })
    if (!row) return 'ignored'
    if (row.status !== 'attempting') return row.status
    // An attempt of an earlier try of this cycle (its outcome was applied when it arrived).
    if (row.attempt_id !== null && row.attempt_id !== attemptId) return row.status
    if (row.idempotency_key !== attempt.idempotencyKey) return row.status
    if (!attempt.ready) return 'pending'
    if (row.attempt_id === null) {
      await db.query(
        'update billing_cycles set attempt_id = $3 where shop_id = $1 and id = $2 and attempt_id is null',
        [shop.id, row.id, attemptId],
      )
    }
    await upsertBillingAttempt(db, shop.id, billingAttemptRecord(attempt, contractId))
    const settings = await getBillingSettings(db, shop.id)
    const now = options.now ?? new Date()
    if (attempt.order && !attempt.errorCode) return settleSuccess(shop, row, attempt, settings)
    return settleFailure(shop, row, attempt, settings, now)
  }

  /** Re-reads a cycle's status (after another path may have settled it). */
  async function statusOf(shopId: string, cycleId: string): Promise<CycleStatus | null> {
    return (await findCycle(db, shopId, cycleId))?.status ?? null
  }

  /**
   * Dunning retry `attemptNo + 1` of a cycle: claims it (only one of the retry job, the daily
   * run and "create order now" gets it) and asks the platform with the retry's own key.
   * Null when someone else took the retry or it is not due.
   */
  async function retryCycle(
    shop: ShopRow,
    cycleId: string,
    attemptNo: number,
    options: {
      runId?: string | null
      dueBy?: Date
      beforeStore?: (attempt: CreatedBillingAttempt) => void | Promise<void>
    } = {},
  ): Promise<AttemptStart | null> {
    const row = await claimRetry(db, {
      shopId: shop.id,
      cycleId,
      attemptNo,
      runId: options.runId ?? null,
      ...(options.dueBy ? { dueBy: options.dueBy } : {}),
    })
    if (!row) return null
    return attemptOf(shop, row, options.beforeStore)
  }

  /** Creates (or re-creates, same key) the row's current attempt; a refusal is recorded. */
  async function attemptOf(
    shop: ShopRow,
    row: CycleRow,
    beforeStore?: (attempt: CreatedBillingAttempt) => void | Promise<void>,
  ): Promise<AttemptStart> {
    const started = await startAttempt(db, clientFor(shop), row, beforeStore)
    if (started.kind === 'refused') {
      await recordRefusal(db, row, started)
      log.warn({ cycle: row.id, contract: row.contract_id, code: started.code }, 'billing attempt refused')
      return started
    }
    await watch(shop.id, started.row)
    return started
  }

  async function watch(shopId: string, row: CycleRow): Promise<void> {
    if (!scheduler) return
    await scheduler.pollLater(shopId, row.id, row.attempt_no).catch((error: unknown) => {
      log.warn({ err: error, cycle: row.id }, 'billing poll job not scheduled')
    })
  }

  /**
   * The polling fallback for one cycle: finishes a create cut off by a crash, then reads the
   * attempt and applies it when ready. 'pending' means: ask again later.
   */
  async function pollCycle(
    shop: ShopRow,
    cycleId: string,
    options: { now?: Date } = {},
  ): Promise<OutcomeResult> {
    let row = await findCycle(db, shop.id, cycleId)
    if (!row) return 'ignored'
    if (row.status !== 'attempting') return row.status
    if (row.attempt_id === null) {
      const started = await attemptOf(shop, row)
      if (started.kind === 'refused') return (await statusOf(shop.id, cycleId)) ?? 'ignored'
      row = started.row
    }
    const [attempt] = await fetchBillingAttempts(clientFor(shop), [
      toGid('SubscriptionBillingAttempt', row.attempt_id!),
    ])
    if (!attempt) return 'pending'
    return onAttemptOutcome(shop, attempt, options)
  }

  /**
   * Waits for the outcomes of `cycleIds` by polling the platform (batched `nodes` reads),
   * applying each as it becomes ready; webhooks may settle some first. Stops when all are
   * settled or after `timeoutMs`. Answers each cycle's final status.
   */
  async function awaitOutcomes(
    shop: ShopRow,
    cycleIds: string[],
    options: {
      now?: Date
      intervalMs?: number
      maxIntervalMs?: number
      timeoutMs?: number
      concurrency?: number
    } = {},
  ): Promise<Map<string, OutcomeResult>> {
    const result = new Map<string, OutcomeResult>()
    let pending = [...new Set(cycleIds)]
    let interval = options.intervalMs ?? 500
    const maxInterval = options.maxIntervalMs ?? 5_000
    const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000)
    const outcomeOptions = options.now ? { now: options.now } : {}
    while (pending.length > 0) {
      const { rows } = await db.query<CycleRow>(
        `select ${CYCLE_COLUMNS} from billing_cycles where shop_id = $1 and id = any($2::bigint[])`,
        [shop.id, pending],
      )
      for (const id of pending) if (!rows.some((r) => r.id === id)) result.set(id, 'ignored')
      const watched: CycleRow[] = []
      for (const row of rows) {
        if (row.status !== 'attempting') {
          result.set(row.id, row.status)
        } else if (row.attempt_id === null) {
          // A create cut off before its attempt id was stored: finish it (same key, same attempt).
          const started = await attemptOf(shop, row)
          if (started.kind === 'created') watched.push(started.row)
          else result.set(row.id, (await statusOf(shop.id, row.id)) ?? 'ignored')
        } else {
          watched.push(row)
        }
      }
      if (watched.length === 0) break
      const attempts = await fetchBillingAttempts(
        clientFor(shop),
        watched.map((r) => toGid('SubscriptionBillingAttempt', r.attempt_id!)),
      )
      const byId = new Map(watched.map((r) => [r.attempt_id!, r]))
      await eachLimited(
        attempts.filter((a) => a.ready),
        options.concurrency ?? 8,
        async (attempt) => {
          const row = byId.get(idFromGid(attempt.id))
          const outcome = await onAttemptOutcome(shop, attempt, outcomeOptions)
          if (row && outcome !== 'pending') result.set(row.id, outcome)
        },
      )
      pending = watched.filter((r) => !result.has(r.id)).map((r) => r.id)
      if (pending.length === 0) break
      if (Date.now() >= deadline) {
        for (const id of pending) result.set(id, 'pending')
        break
      }
      await new Promise((r) => setTimeout(r, interval))
      interval = Math.min(maxInterval, interval * 2)
    }
    return result
  }

  return {
    onAttemptOutcome,
    priceCharge,
    retryCycle,
    attemptOf,
    pollCycle,
    awaitOutcomes,
    watch,
    setScheduler(next: BillingScheduler | undefined) {
      scheduler = next
    },
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; the first error is thrown after all settle. */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!
      try {
        await fn(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw (failure as { error: unknown }).error
}

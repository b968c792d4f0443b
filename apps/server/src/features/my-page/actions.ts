import type { DeliveryAddress, DeliveryTime, MyPageActionResponse } from '@teiki/contract'
import {
  dateMoveProblem,
  dateMoveWindow,
  formatDateJa,
  type SubscriberAction,
  subscriberRefusal,
  toZonedDate,
} from '@teiki/domain'
import { scheduleAfter } from '../../billing/schedule.ts'
import { withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import type { ContractActions } from '../subscriptions/actions-service.ts'
import type { ContractEditsOptions } from '../subscriptions/edit-rules.ts'
import { contractEditsOfCustomer } from '../subscriptions/edits-service.ts'
import { endPause, savePause } from './pauses-repo.ts'
import { subscriberContract } from './service.ts'
import { myPageSettingsOf } from './settings-service.ts'
import { findCustomerContract, type RuleRow, swapVariantsFor } from './subscriber-repo.ts'

/**
 * マイページ's changes (issue 26): the subscriber's skip, pause for 1–3 cycles, resume, date move,
 * quantity, product swap, address, time slot, card update mail and cancellation. Each is checked
 * against the merchant's switches, the change lock and the plan's rules (domain
 * `subscriberRefusal`: 409 in Japanese, nothing changed), then made by the contract services the
 * merchant's screens use (the edit flow with this customer bound: another customer's contract is
 * 404; the status actions with `actor: 'customer'`), so drafts, revisions, the mirror, the history
 * (お客様) and the mails are the same as a merchant's change.
 */

export type SubscriberActionsDeps = {
  edits: ContractEditsOptions
  actions: ContractActions
  now?: () => Date
}

const CONTRACT_NOT_FOUND = '定期便が見つかりません'

export function createSubscriberActions(deps: SubscriberActionsDeps) {
  const db = deps.edits.db
  const now = () => (deps.now ?? (() => new Date()))()

  /** The contract if it is this customer's, after the rules allowed `action` on it. */
  async function allowed(
    shop: ShopRow,
    customerId: string,
    contractId: string,
    action: SubscriberAction,
  ): Promise<RuleRow> {
    const row = await findCustomerContract(db, shop.id, customerId, contractId)
    if (!row) throw notFound(CONTRACT_NOT_FOUND)
    const settings = await myPageSettingsOf(db, shop.id)
    const refusal = subscriberRefusal(
      action,
      {
        status: row.status,
        nextBillingAt: row.next_billing_date,
        ordersSoFar: row.orders_so_far,
        minCycles: row.billing_policy?.minCycles ?? null,
      },
      { settings, now: now(), timeZone: shop.iana_timezone },
    )
    if (refusal) throw new AppError('CONFLICT', refusal)
    return row
  }

  async function answer(
    shop: ShopRow,
    customerId: string,
    contractId: string,
    message: string,
  ): Promise<MyPageActionResponse> {
    const contract = await subscriberContract(db, shop, customerId, contractId, now())
    if (!contract) throw notFound(CONTRACT_NOT_FOUND)
    return { contract, message }
  }

  const editsFor = (customerId: string) => contractEditsOfCustomer(deps.edits, customerId)
  const date = (iso: string, shop: ShopRow) => formatDateJa(iso, shop.iana_timezone)

  return {
    async skip(shop: ShopRow, customerId: string, contractId: string) {
      await allowed(shop, customerId, contractId, 'skip')
      const done = await editsFor(customerId).skipCycles(shop, contractId, { cycles: 1 })
      const message = `次回のお届けをスキップしました。次回のご注文日は${date(done.nextBillingDate, shop)}です。`
      return answer(shop, customerId, contractId, message)
    },

    /** Pauses for `cycles` cycles: the next order moves that many cycles on, the contract is PAUSED until the day before. */
    async pause(shop: ShopRow, customerId: string, contractId: string, cycles: number) {
      await allowed(shop, customerId, contractId, 'pause')
      const moved = await editsFor(customerId).skipCycles(shop, contractId, { cycles })
      await deps.actions.run(shop, 'pause', { contractId, customerId, actor: 'customer' })
      const resumeAt = new Date(new Date(moved.nextBillingDate).getTime() - 86_400_000)
      await savePause(db, shop.id, contractId, cycles, resumeAt)
      const message = `${cycles}回分お休みします。${date(moved.nextBillingDate, shop)}のご注文から再開します。`
      return answer(shop, customerId, contractId, message)
    },

    async resume(shop: ShopRow, customerId: string, contractId: string) {
      await allowed(shop, customerId, contractId, 'resume')
      await deps.actions.run(shop, 'resume', { contractId, customerId, actor: 'customer' })
      await endPause(db, shop.id, contractId)
      return answer(shop, customerId, contractId, '定期便を再開しました。')
    },

    /** Moves the next order to `day` (the shop's calendar), within the window the rules allow. */
    async moveDate(shop: ShopRow, customerId: string, contractId: string, day: string) {
      const row = await allowed(shop, customerId, contractId, 'date')
      const next = row.next_billing_date
      if (!next || !row.billing_policy?.interval)
        throw new AppError('CONFLICT', '次回のご注文が予定されていないため、変更できません。')
      const settings = await myPageSettingsOf(db, shop.id)
      const following = scheduleAfter(
        { createdAt: row.created_at.toISOString(), billingPolicy: row.billing_policy as never },
        next,
        shop.iana_timezone,
      )
      const window = dateMoveWindow(next, following, {
        now: now(),
        timeZone: shop.iana_timezone,
        lockDays: settings.lockDays,
      })
      const problem = dateMoveProblem(day, window, shop.iana_timezone)
      if (problem) throw new AppError('INVALID_INPUT', problem)
      if (day !== toZonedDate(next, shop.iana_timezone)) {
        await editsFor(customerId).nextBillingDate(shop, { contractId, nextBillingDate: day, isAdmin: false })
      }
      return answer(shop, customerId, contractId, `次回のご注文日を${date(day, shop)}に変更しました。`)
    },

    async quantity(shop: ShopRow, customerId: string, contractId: string, lineId: string, quantity: number) {
      await allowed(shop, customerId, contractId, 'quantity')
      await editsFor(customerId).lineQuantity(shop, contractId, lineId, { quantity })
      return answer(shop, customerId, contractId, `数量を${quantity}に変更しました。`)
    },

    /** Swaps a line to one of the variants this customer's group may pick (404 for any other). */
    async swap(shop: ShopRow, customerId: string, contractId: string, lineId: string, variantId: string) {
      await allowed(shop, customerId, contractId, 'swap')
      const twoGroups = await isFlagOn(db, shop.id, 'two_customer_groups')
      const permitted = await swapVariantsFor(db, shop.id, customerId, twoGroups)
      const target = permitted.find((v) => v.variant_id === variantId)
      if (!target) throw notFound('選択された商品には変更できません')
      await editsFor(customerId).swapVariant(shop, contractId, lineId, { variantId, keepPrice: false })
      return answer(shop, customerId, contractId, `商品を「${target.title}」に変更しました。`)
    },

    async slot(shop: ShopRow, customerId: string, contractId: string, deliveryTime: DeliveryTime) {
      await allowed(shop, customerId, contractId, 'slot')
      await editsFor(customerId).deliveryTime(shop, contractId, { deliveryTime })
      return answer(shop, customerId, contractId, '配送時間帯を変更しました。')
    },

    async address(shop: ShopRow, customerId: string, contractId: string, address: DeliveryAddress) {
      await allowed(shop, customerId, contractId, 'address')
      await editsFor(customerId).deliveryAddress(shop, contractId, { address })
      return answer(shop, customerId, contractId, 'お届け先を変更しました。')
    },

    async cardMail(shop: ShopRow, customerId: string, contractId: string) {
      await allowed(shop, customerId, contractId, 'cardMail')
      const sent = await editsFor(customerId).sendPaymentUpdateEmail(shop, contractId)
      const to = sent.sentTo ? `（${sent.sentTo}）` : ''
      return answer(shop, customerId, contractId, `カード情報の更新メールをお送りしました${to}。`)
    },

    /** Cancels with one of the shop's reasons (recorded for 解約理由, mailed with the template). */
    async cancel(shop: ShopRow, customerId: string, contractId: string, reasonId: string) {
      await allowed(shop, customerId, contractId, 'cancel')
      await deps.actions.run(shop, 'churn', { contractId, customerId, reasonId, actor: 'customer' })
      await withTransaction(db, (tx) => endPause(tx, shop.id, contractId))
      return answer(shop, customerId, contractId, '定期便を解約しました。ご利用ありがとうございました。')
    },
  }
}

export type SubscriberActions = ReturnType<typeof createSubscriberActions>

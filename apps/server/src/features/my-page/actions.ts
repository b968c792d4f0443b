import type { DeliveryAddress, DeliveryTime, MyPageActionResponse } from '@teiki/contract'
import {
  dateMoveProblem,
  dateMoveWindow,
  deliveryTimeLabel,
  formatDateJa,
  offerDiscountTitle,
  offerLabel,
  type RetentionOffer,
  revenueKept,
  type SubscriberAction,
  subscriberRefusal,
  toZonedDate,
} from '@teiki/domain'
import { scheduleAfter } from '../../billing/schedule.ts'
import { withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { findReasonOffer } from '../cancellation-reasons/service.ts'
import { decideContractMail } from '../mail-templates/service.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import type { ContractActions } from '../subscriptions/actions-service.ts'
import type { ContractEditsOptions } from '../subscriptions/edit-rules.ts'
import { contractEditsOfCustomer } from '../subscriptions/edits-service.ts'
import { endPause, savePause } from './pauses-repo.ts'
import { decideFlow, insertFlow, offeredFlowOf, orderAmountOf } from './retention-repo.ts'
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
  /** ご契約内容の変更 mails (メールテンプレート); none without. Pause, resume and cancel mail through `actions`. */
  mailer?: Mailer
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

  /**
   * The ご契約内容の変更 mail of a change (template contract_change), decided once per change: the
   * contract's revision after it is the dedupe key. Sent now; what cannot be is left to the outbox.
   */
  async function changeMail(shop: ShopRow, contractId: string, summary: string, revision: string) {
    const mailer = deps.mailer
    if (!mailer) return
    const id = await decideContractMail(db, mailer, shop, {
      type: 'contract_change',
      contractId,
      dedupeKey: `contract_change:${contractId}:${revision}`,
      values: { changeSummary: summary },
    })
    if (id) await mailer.deliver([id]).catch(() => {})
  }

  /** Applies an accepted offer through the same edits (the merchant set it: no switch applies). */
  async function applyOffer(
    shop: ShopRow,
    customerId: string,
    contractId: string,
    offer: RetentionOffer,
    currencyCode: string,
  ): Promise<void> {
    const edits = editsFor(customerId)
    switch (offer.kind) {
      case 'skip':
        await edits.skipCycles(shop, contractId, { cycles: 1 })
        return
      case 'pause':
        await pauseFor(shop, customerId, contractId, offer.cycles)
        return
      case 'swap': {
        const contract = await subscriberContract(db, shop, customerId, contractId, now())
        const line = contract?.lines[0]
        if (!line) throw new AppError('CONFLICT', 'この定期便には変更できる商品がありません。')
        await edits.swapVariant(shop, contractId, line.lineId, {
          variantId: offer.variantId,
          keepPrice: false,
        })
        return
      }
      default: {
        const title = offerDiscountTitle(offer, currencyCode)
        const value = offer.kind === 'percent' ? { percent: offer.percent } : { amount: offer.amount }
        await edits.addManualDiscount(shop, contractId, { title, orders: offer.orders, ...value })
      }
    }
  }

  /** Pauses for `cycles` cycles: the next order moves that many cycles on, PAUSED until the day before. */
  async function pauseFor(shop: ShopRow, customerId: string, contractId: string, cycles: number) {
    const moved = await editsFor(customerId).skipCycles(shop, contractId, { cycles })
    await deps.actions.run(shop, 'pause', { contractId, customerId, actor: 'customer' })
    const resumeAt = new Date(new Date(moved.nextBillingDate).getTime() - 86_400_000)
    await savePause(db, shop.id, contractId, cycles, resumeAt)
    return moved.nextBillingDate
  }
  const date = (iso: string, shop: ShopRow) => formatDateJa(iso, shop.iana_timezone)

  return {
    async skip(shop: ShopRow, customerId: string, contractId: string) {
      await allowed(shop, customerId, contractId, 'skip')
      const done = await editsFor(customerId).skipCycles(shop, contractId, { cycles: 1 })
      const message = `次回のお届けをスキップしました。次回のご注文日は${date(done.nextBillingDate, shop)}です。`
      await changeMail(shop, contractId, message, done.revision)
      return answer(shop, customerId, contractId, message)
    },

    /** Pauses for `cycles` cycles: the next order moves that many cycles on, the contract is PAUSED until the day before. */
    async pause(shop: ShopRow, customerId: string, contractId: string, cycles: number) {
      await allowed(shop, customerId, contractId, 'pause')
      const next = await pauseFor(shop, customerId, contractId, cycles)
      const message = `${cycles}回分お休みします。${date(next, shop)}のご注文から再開します。`
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
      const message = `次回のご注文日を${date(day, shop)}に変更しました。`
      if (day !== toZonedDate(next, shop.iana_timezone)) {
        const done = await editsFor(customerId).nextBillingDate(shop, {
          contractId,
          nextBillingDate: day,
          isAdmin: false,
        })
        await changeMail(shop, contractId, message, done.revision)
      }
      return answer(shop, customerId, contractId, message)
    },

    async quantity(shop: ShopRow, customerId: string, contractId: string, lineId: string, quantity: number) {
      await allowed(shop, customerId, contractId, 'quantity')
      const done = await editsFor(customerId).lineQuantity(shop, contractId, lineId, { quantity })
      const message = `数量を${quantity}に変更しました。`
      await changeMail(shop, contractId, message, done.revision)
      return answer(shop, customerId, contractId, message)
    },

    /** Swaps a line to one of the variants this customer's group may pick (404 for any other). */
    async swap(shop: ShopRow, customerId: string, contractId: string, lineId: string, variantId: string) {
      await allowed(shop, customerId, contractId, 'swap')
      const twoGroups = await isFlagOn(db, shop.id, 'two_customer_groups')
      const permitted = await swapVariantsFor(db, shop.id, customerId, twoGroups)
      const target = permitted.find((v) => v.variant_id === variantId)
      if (!target) throw notFound('選択された商品には変更できません')
      const done = await editsFor(customerId).swapVariant(shop, contractId, lineId, {
        variantId,
        keepPrice: false,
      })
      const message = `商品を「${target.title}」に変更しました。`
      await changeMail(shop, contractId, message, done.revision)
      return answer(shop, customerId, contractId, message)
    },

    async slot(shop: ShopRow, customerId: string, contractId: string, deliveryTime: DeliveryTime) {
      await allowed(shop, customerId, contractId, 'slot')
      const done = await editsFor(customerId).deliveryTime(shop, contractId, { deliveryTime })
      const message = `配送時間帯を「${deliveryTimeLabel(deliveryTime)}」に変更しました。`
      await changeMail(shop, contractId, message, done.revision)
      return answer(shop, customerId, contractId, message)
    },

    async address(shop: ShopRow, customerId: string, contractId: string, address: DeliveryAddress) {
      await allowed(shop, customerId, contractId, 'address')
      const done = await editsFor(customerId).deliveryAddress(shop, contractId, { address })
      await changeMail(shop, contractId, 'お届け先を変更しました。', done.revision)
      return answer(shop, customerId, contractId, 'お届け先を変更しました。')
    },

    async cardMail(shop: ShopRow, customerId: string, contractId: string) {
      await allowed(shop, customerId, contractId, 'cardMail')
      const sent = await editsFor(customerId).sendPaymentUpdateEmail(shop, contractId)
      const to = sent.sentTo ? `（${sent.sentTo}）` : ''
      return answer(shop, customerId, contractId, `カード情報の更新メールをお送りしました${to}。`)
    },

    /**
     * Cancels with one of the shop's reasons, as a conversation (retention.ts): a reason with an
     * offer this contract was never shown answers the offer and changes nothing; `decision`
     * accept applies it (the contract stays), decline cancels. Without an offer: cancelled.
     */
    async cancel(
      shop: ShopRow,
      customerId: string,
      contractId: string,
      reasonId: string,
      decision?: 'accept' | 'decline',
    ): Promise<MyPageActionResponse> {
      await allowed(shop, customerId, contractId, 'cancel')
      const reason = await findReasonOffer(db, shop.id, reasonId)
      if (!reason) throw notFound('解約理由が見つかりません')
      const flow = await offeredFlowOf(db, shop.id, contractId)
      const offer =
        reason.offer && (!flow || flow.outcome === 'offered') ? (flow?.offer ?? reason.offer) : null
      const { amount, currencyCode } = await orderAmountOf(db, shop.id, contractId)
      // An answer to an offer that is no longer open (answered on another tab) cancels nothing.
      if (!offer && decision === 'accept')
        throw new AppError('CONFLICT', 'このオファーはご利用いただけません。ページを開き直してください。')
      if (offer && decision === undefined) {
        if (!flow)
          await insertFlow(db, {
            shopId: shop.id,
            contractId,
            reasonId,
            reason: reason.reason,
            offer,
            outcome: 'offered',
            currencyCode,
          })
        const answered = await answer(shop, customerId, contractId, '')
        return { ...answered, offer: { label: offerLabel(offer, currencyCode), kind: offer.kind } }
      }
      if (offer && decision === 'accept') {
        await applyOffer(shop, customerId, contractId, offer, currencyCode)
        const kept = revenueKept(offer, amount)
        if (flow) await decideFlow(db, shop.id, flow.id, 'kept', kept)
        else
          await insertFlow(db, {
            shopId: shop.id,
            contractId,
            reasonId,
            reason: reason.reason,
            offer,
            outcome: 'kept',
            revenueKept: kept,
            currencyCode,
          })
        const message = `「${offerLabel(offer, currencyCode)}」を適用しました。定期便はこのまま続きます。`
        if (offer.kind !== 'pause')
          await changeMail(shop, contractId, message, `offer-${flow?.id ?? reasonId}`)
        return answer(shop, customerId, contractId, message)
      }
      await deps.actions.run(shop, 'churn', { contractId, customerId, reasonId, actor: 'customer' })
      if (flow?.outcome === 'offered') await decideFlow(db, shop.id, flow.id, 'cancelled')
      else
        await insertFlow(db, {
          shopId: shop.id,
          contractId,
          reasonId,
          reason: reason.reason,
          offer: null,
          outcome: 'cancelled',
          currencyCode,
        })
      await withTransaction(db, (tx) => endPause(tx, shop.id, contractId))
      return answer(shop, customerId, contractId, '定期便を解約しました。ご利用ありがとうございました。')
    },
  }
}

export type SubscriberActions = ReturnType<typeof createSubscriberActions>

import type { ContractActionResponse, SubscriptionStatus } from '@teiki/contract'
import { classifyStatusMove } from '@teiki/domain'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { AdminClient, AdminClientOptions } from '../../platform/admin-client.ts'
import { PlatformUnavailableError, PlatformUserError } from '../../platform/errors.ts'
import { toGid } from '../../platform/gid.ts'
import { platformRefusal, STALE_CONTRACT } from '../../platform/merchant-errors.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import {
  activateSubscriptionContract,
  type ContractStatusResult,
  cancelSubscriptionContract,
  pauseSubscriptionContract,
} from '../../platform/operations/subscription-contract-status.ts'
import { createShopClients, type ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { appendContractEvents, lockContract, upsertContracts } from '../../sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../../sync/records.ts'
import { recordCancellation, resolveCancellationReason } from '../cancellation-reasons/service.ts'
import { decideContractMail } from '../mail-templates/service.ts'

export type ContractAction = 'pause' | 'resume' | 'churn'

const TARGET: Record<ContractAction, SubscriptionStatus> = {
  pause: 'PAUSED',
  resume: 'ACTIVE',
  churn: 'CANCELLED',
}

const MUTATION: Record<ContractAction, (client: AdminClient, gid: string) => Promise<ContractStatusResult>> =
  {
    pause: pauseSubscriptionContract,
    resume: activateSubscriptionContract,
    churn: cancelSubscriptionContract,
  }

const ACTION_LABEL: Record<ContractAction, string> = { pause: '一時停止', resume: '再開', churn: '解約' }

export type ContractActionInput = {
  contractId: string
  customerId: string
  revision?: string | undefined
  reasonId?: string | undefined
  reason?: string | undefined
  /** The subscriber made this change on マイページ: the history says お客様 (absent: ストア). */
  actor?: 'customer'
}

export type ContractActionsOptions = {
  db: Db
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  /** Retry knobs of the per-shop Admin clients (tests shorten them). */
  client?: Pick<AdminClientOptions, 'maxRetries' | 'retryBaseMs' | 'sleep'>
  log?: { warn: (obj: unknown, msg: string) => void }
  /** Per-shop Admin clients shared with other handlers; built from the options above when omitted. */
  clients?: ShopClients
  /** The customer is mailed about a pause, resume or cancellation (メールテンプレート); none without. */
  mailer?: Mailer
}

const MAIL_TYPE = { pause: 'pause', resume: 'resume', churn: 'cancellation' } as const

export type ContractActions = {
  run(shop: ShopRow, action: ContractAction, input: ContractActionInput): Promise<ContractActionResponse>
}

type MirrorRow = { status: SubscriptionStatus; customer_id: string; updated_at: Date }

const CONTRACT_NOT_FOUND = '契約が見つかりません'

/**
 * Pause, resume and churn (spec §7 contract actions). The mirror decides what is asked for
 * (unknown contract → 404, forbidden move → 409 without a platform call, same status →
 * no-op); the platform makes the change; the contract is then re-read and written to the
 * mirror with its `status_changed` event under the per-contract lock the webhook path takes,
 * so the webhook of the same change finds nothing left to log.
 */
export function createContractActions(opts: ContractActionsOptions): ContractActions {
  const { clientFor } = opts.clients ?? createShopClients(opts)

  async function run(
    shop: ShopRow,
    action: ContractAction,
    input: ContractActionInput,
  ): Promise<ContractActionResponse> {
    const { rows } = await opts.db.query<MirrorRow>(
      'select status, customer_id::text, updated_at from subscription_contracts where shop_id = $1 and id = $2',
      [shop.id, input.contractId],
    )
    const current = rows[0]
    // Another shop's contract and a customer id that does not match are "not found" alike:
    // the answer never tells whether an id exists elsewhere.
    if (!current || current.customer_id !== input.customerId) throw notFound(CONTRACT_NOT_FOUND)

    const target = TARGET[action]
    const move = classifyStatusMove(current.status, target)
    if (move.kind === 'refused') throw new AppError('CONFLICT', move.reason)
    // An unknown or deleted reason is refused before the platform cancels anything.
    const reasonText =
      action === 'churn' && input.reasonId
        ? await resolveCancellationReason(opts.db, shop.id, input.reasonId)
        : undefined
    const client = clientFor(shop)
    const gid = toGid('SubscriptionContract', input.contractId)
    if (input.revision !== undefined) {
      // The screen's revision against the platform's: someone else may have edited since.
      let live: Awaited<ReturnType<typeof fetchSubscriptionContract>>
      try {
        live = await fetchSubscriptionContract(client, gid)
      } catch (error) {
        throw platformError(error, action)
      }
      if (!live) throw notFound(CONTRACT_NOT_FOUND)
      if (String(live.revisionId) !== input.revision) throw new AppError('CONFLICT', STALE_CONTRACT)
    }
    if (move.kind === 'noop') {
      return {
        contractId: input.contractId,
        status: current.status,
        updatedAt: current.updated_at.toISOString(),
      }
    }

    let moved: ContractStatusResult
    try {
      moved = await MUTATION[action](client, gid)
    } catch (error) {
      throw platformError(error, action)
    }

    // Re-read the whole contract so the mirror row is what the sync and webhooks would write.
    let contract: Awaited<ReturnType<typeof fetchSubscriptionContract>> = null
    try {
      contract = await fetchSubscriptionContract(client, gid)
    } catch (error) {
      // The change is made; the platform's webhook will bring it to the mirror.
      opts.log?.warn({ err: error, contractId: input.contractId }, 'contract re-read after action failed')
    }
    if (!contract) {
      return { contractId: input.contractId, status: moved.status, updatedAt: moved.updatedAt }
    }
    const record = contractRecord(contract)
    const lines = lineRecords(contract)
    const extra: Record<string, unknown> = input.actor ? { actor: input.actor } : {}
    if (action === 'churn') {
      if (input.reasonId) extra.reasonId = input.reasonId
      if (reasonText !== undefined || input.reason) extra.reason = reasonText ?? input.reason
      if (reasonText !== undefined && input.reason) extra.comment = input.reason
    }
    const mailId = await withTransaction(opts.db, async (tx) => {
      await lockContract(tx, shop.id, record.id)
      const changes = await upsertContracts(tx, shop.id, [record], lines)
      await appendContractEvents(tx, shop.id, 'app', changes, extra)
      // The customer's mail is decided with the change, once per change (the contract's revision).
      const mail =
        opts.mailer && changes.some((c) => c.status === target && c.previous_status !== target)
          ? await decideContractMail(tx, opts.mailer, shop, {
              type: MAIL_TYPE[action],
              contractId: record.id,
              dedupeKey: `${MAIL_TYPE[action]}:${record.id}:${record.revision_id ?? record.updated_at}`,
              values: { cancellationReason: (extra.reason as string | undefined) ?? null },
            })
          : null
      if (action === 'churn' && changes.some((c) => c.status === 'CANCELLED')) {
        await recordCancellation(
          tx,
          shop.id,
          record.id,
          { reasonId: input.reasonId, reason: input.reason },
          new Date(record.updated_at),
        )
      }
      return mail
    })
    if (mailId && opts.mailer) {
      await opts.mailer.deliver([mailId]).catch((error: unknown) => {
        opts.log?.warn({ err: error, contractId: input.contractId }, 'contract mail left to the outbox drain')
      })
    }
    return {
      contractId: input.contractId,
      status: record.status as SubscriptionStatus,
      updatedAt: record.updated_at,
    }
  }

  return { run }
}

function platformError(error: unknown, action: ContractAction): unknown {
  if (error instanceof PlatformUserError) {
    return new AppError('PLATFORM_USER_ERROR', platformRefusal(`契約の${ACTION_LABEL[action]}`, error), {
      cause: error,
    })
  }
  if (error instanceof PlatformUnavailableError) {
    return new AppError(
      'PLATFORM_UNAVAILABLE',
      `Shopify に接続できなかったため、契約を${ACTION_LABEL[action]}できませんでした。しばらくしてからもう一度お試しください。`,
      { cause: error },
    )
  }
  return error
}

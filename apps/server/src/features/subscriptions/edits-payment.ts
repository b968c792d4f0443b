import type {
  ContractEditResponse,
  PaymentMethodsResponse,
  PaymentUpdateEmailResponse,
} from '@teiki/contract'
import { AppError } from '../../http/app-error.ts'
import { idFromGid, maybeIdFromGid, toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { sendPaymentMethodUpdateEmail } from '../../platform/operations/customer-payment-method-send-update-email.ts'
import { fetchCustomerPaymentMethods } from '../../platform/operations/customer-payment-methods.ts'
import { editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { appendContractEvent } from '../../sync/contracts-repo.ts'
import { type EditDeps, type Revisioned, refuseEnded } from './edit-rules.ts'
import { paymentInstrument } from './payment-instrument.ts'

export async function paymentMethods(
  { flow, now }: EditDeps,
  shop: ShopRow,
  contractId: string,
): Promise<PaymentMethodsResponse> {
  const label = '決済方法の取得'
  const ctx = await flow.read(shop, contractId, label)
  const customerId = ctx.current.customer?.id
  if (!customerId) return { contractId, currentId: null, methods: [] }
  let methods: Awaited<ReturnType<typeof fetchCustomerPaymentMethods>>
  try {
    methods = await fetchCustomerPaymentMethods(ctx.client, customerId)
  } catch (error) {
    throw platformError(error, label)
  }
  const current = ctx.current.customerPaymentMethod as { id?: string } | null
  return {
    contractId,
    currentId: maybeIdFromGid(current?.id),
    methods: (methods ?? []).map((m) => ({
      id: idFromGid(m.id),
      instrument: paymentInstrument(m.instrument, now()),
      revoked: m.revokedAt !== null,
    })),
  }
}

export async function modifyPaymentMethod(
  { flow }: EditDeps,
  shop: ShopRow,
  input: { contractId: string; paymentMethodId: string } & Revisioned,
): Promise<ContractEditResponse> {
  return flow.edit(shop, { ...input, label: '決済方法の変更' }, async (ctx) => {
    refuseEnded(ctx, '決済方法を変更')
    const from = maybeIdFromGid((ctx.current.customerPaymentMethod as { id?: string } | null)?.id)
    if (from === input.paymentMethodId) return {}
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.update({ paymentMethodId: toGid('CustomerPaymentMethod', input.paymentMethodId) }),
    )
    return { event: { type: 'payment_method_changed', payload: { from, to: input.paymentMethodId } } }
  })
}

export async function sendPaymentUpdateEmail(
  { opts, flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
): Promise<PaymentUpdateEmailResponse> {
  const label = '決済方法の更新メールの送信'
  const ctx = await flow.read(shop, contractId, label)
  const method = ctx.current.customerPaymentMethod as { id?: string } | null
  if (!method?.id)
    throw new AppError('CONFLICT', 'この契約には決済方法が登録されていないため、更新メールを送信できません')
  let customer: Awaited<ReturnType<typeof sendPaymentMethodUpdateEmail>>
  try {
    customer = await sendPaymentMethodUpdateEmail(ctx.client, method.id)
  } catch (error) {
    throw platformError(error, label)
  }
  await appendContractEvent(opts.db, shop.id, 'app', {
    contractId,
    type: 'payment_update_email_sent',
    payload: {
      paymentMethodId: idFromGid(method.id),
      ...(opts.subscriber ? { actor: 'customer' } : {}),
    },
  })
  return { contractId, sentTo: customer?.email ?? null }
}

/** The customer's payment methods, the contract's one, and the platform's update e-mail. */
export const paymentEdits = { paymentMethods, modifyPaymentMethod, sendPaymentUpdateEmail }

import type { ContractEditResponse, DeliveryAddress, OrderCountResponse } from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import { editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { appendContractEvent } from '../../sync/contracts-repo.ts'
import { CONTRACT_NOT_FOUND } from './edit-flow.ts'
import { type EditDeps, type Revisioned, refuseEnded } from './edit-rules.ts'
import { findOrderCount, setOrderCountCorrection } from './edits-repo.ts'

export async function getOrderCount(
  { opts }: EditDeps,
  shop: ShopRow,
  contractId: string,
): Promise<OrderCountResponse> {
  const row = await findOrderCount(opts.db, shop.id, contractId)
  if (!row) throw notFound(CONTRACT_NOT_FOUND)
  return {
    contractId,
    count: row.count,
    setCount: row.order_count_set,
    setAt: row.order_count_set_at?.toISOString() ?? null,
  }
}

export async function note(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { note: string } & Revisioned,
) {
  return flow.edit(shop, { contractId, revision: input.revision, label: 'メモの変更' }, async (ctx) => {
    if ((ctx.current.note ?? '') === input.note) return {}
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.update({ note: input.note }))
    return { event: { type: 'note_changed', payload: { length: input.note.length } } }
  })
}

/** The order count is the app's own (reports read it): no platform call. */
export async function setOrderCount(
  deps: EditDeps,
  shop: ShopRow,
  contractId: string,
  count: number,
): Promise<OrderCountResponse> {
  const { db } = deps.opts
  const previous = await setOrderCountCorrection(db, shop.id, contractId, count)
  if (previous === undefined) throw notFound(CONTRACT_NOT_FOUND)
  await appendContractEvent(db, shop.id, 'app', {
    contractId,
    type: 'order_count_set',
    payload: { from: previous, to: count },
  })
  return getOrderCount(deps, shop, contractId)
}

export async function deliveryAddress(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { address: DeliveryAddress } & Revisioned,
): Promise<ContractEditResponse> {
  const a = input.address
  const zip = a.zip.includes('-') ? a.zip : `${a.zip.slice(0, 3)}-${a.zip.slice(3)}`
  return flow.edit(shop, { contractId, revision: input.revision, label: '配送先の変更' }, async (ctx) => {
    refuseEnded(ctx, '配送先を変更')
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.update({
        deliveryMethod: {
          shipping: {
            address: {
              lastName: a.lastName,
              firstName: a.firstName,
              zip,
              provinceCode: a.provinceCode,
              city: a.city,
              address1: a.address1,
              address2: a.address2,
              phone: a.phone,
              countryCode: 'JP',
            },
          },
        },
      }),
    )
    return { event: { type: 'delivery_address_changed', payload: { provinceCode: a.provinceCode, zip } } }
  })
}

/** Note, the order count (the app's own) and the delivery address. */
export const detailEdits = { note, getOrderCount, setOrderCount, deliveryAddress }

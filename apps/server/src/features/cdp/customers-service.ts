import type { CustomerData, CustomerLog, CustomerTags } from '@teiki/contract'
import type { Db } from '../../db/pool.ts'
import { withTransaction } from '../../db/pool.ts'
import { notFound } from '../../http/app-error.ts'
import { toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchCustomer } from '../../platform/operations/customer.ts'
import { addCustomerTags } from '../../platform/operations/tags-add.ts'
import { removeCustomerTags } from '../../platform/operations/tags-remove.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  type CustomerProfileRow,
  customerContracts,
  customerLog,
  customerOrders,
  findCustomer,
  writeCustomerTags,
} from './customers-repo.ts'
import { logEntry } from './log-text.ts'
import { lifetimeOf, NAMELESS } from './segments-service.ts'

export const CUSTOMER_NOT_FOUND = '顧客が見つかりません'
const LOG_LIMIT = 200

function addressText(a: Record<string, string | null> | null): string | null {
  if (!a) return null
  const zip = a.zip ? `〒${a.zip} ` : ''
  const text =
    `${zip}${a.province ?? ''}${a.city ?? ''}${a.address1 ?? ''}${a.address2 ? ` ${a.address2}` : ''}`.trim()
  return text === '' ? null : text
}

export type CustomerServiceDeps = { db: Db; clients: ShopClients }

/** How a tag batch adds a tag to one customer (tag-run.ts). */
export type BatchTagOptions = {
  /** A worker before a crash asked the platform already: its tags are read first, not added again. */
  attempted: boolean
  /** Called just before the platform is asked to add (the batch marks its row). */
  beforeAsk: () => Promise<void>
}

export function createCustomerService(deps: CustomerServiceDeps) {
  const { db } = deps

  async function stored(shop: ShopRow, id: string): Promise<CustomerProfileRow> {
    const row = await findCustomer(db, shop.id, id)
    if (!row) throw notFound(CUSTOMER_NOT_FOUND)
    return row
  }

  /**
   * A tag change: the platform first (its answer is the customer's tags), then the mirror and
   * the log in one transaction. Tags the customer already had (added) or lacked (removed) are
   * not logged as changed.
   */
  async function editTags(
    shop: ShopRow,
    id: string,
    tags: string[],
    action: 'added' | 'removed',
    source: 'app' | 'segment',
    batch?: BatchTagOptions,
  ) {
    const before = await stored(shop, id)
    const client = deps.clients.clientFor(shop)
    const gid = toGid('Customer', id)
    const what = action === 'added' ? 'タグの追加' : 'タグの削除'
    let answer: { tags: string[]; updatedAt: string } | null = null
    try {
      if (batch?.attempted) {
        const now = await fetchCustomer(client, gid)
        const has = now?.tags ?? []
        if (now && tags.every((t) => has.includes(t))) answer = { tags: has, updatedAt: now.updatedAt }
      }
    } catch (error) {
      throw platformError(error, what)
    }
    if (!answer) {
      await batch?.beforeAsk()
      try {
        answer =
          action === 'added'
            ? await addCustomerTags(client, gid, tags)
            : await removeCustomerTags(client, gid, tags)
      } catch (error) {
        throw platformError(error, what)
      }
    }
    const { tags: after, updatedAt } = answer
    const changed =
      action === 'added'
        ? after.filter((t) => !before.tags.includes(t))
        : before.tags.filter((t) => !after.includes(t))
    await withTransaction(db, (tx) =>
      writeCustomerTags(tx, shop.id, id, after, updatedAt, { action, tags: changed, source }),
    )
    return { customerId: id, tags: after }
  }

  return {
    async data(shop: ShopRow, id: string): Promise<CustomerData> {
      const row = await stored(shop, id)
      const [contracts, orders] = await Promise.all([
        customerContracts(db, shop.id, id),
        customerOrders(db, shop.id, id),
      ])
      return {
        customer: {
          id: row.id,
          displayName: row.display_name || NAMELESS,
          email: row.email,
          phone: row.phone,
          address: addressText(row.default_address),
          tags: row.tags,
          createdAt: row.created_at ? row.created_at.toISOString() : null,
        },
        contracts: contracts.map((c) => ({
          id: c.id,
          status: c.status,
          nextBillingDate: c.next_billing_date ? c.next_billing_date.toISOString() : null,
          orderCount: c.order_count,
          currencyCode: c.currency_code,
          items: c.items ?? '',
          createdAt: c.created_at.toISOString(),
        })),
        orders: orders.map((o) => ({
          id: o.id,
          name: o.name,
          contractId: o.contract_id,
          amount: o.total_amount === null ? null : Number(o.total_amount),
          refunded: Number(o.refunded_amount),
          currencyCode: o.currency_code,
          test: o.test,
          cancelled: o.cancelled_at !== null,
          createdAt: o.created_at.toISOString(),
        })),
        lifetime: lifetimeOf(row.amounts, shop.currency_code),
        firstOrderAt: row.first_order_at ? row.first_order_at.toISOString() : null,
      }
    },

    async log(shop: ShopRow, id: string): Promise<CustomerLog> {
      await stored(shop, id)
      const rows = await customerLog(db, shop.id, id, LOG_LIMIT)
      return { entries: rows.map((row) => logEntry(row, shop.iana_timezone)) }
    },

    addTags: (
      shop: ShopRow,
      id: string,
      tags: string[],
      source: 'app' | 'segment' = 'app',
      batch?: BatchTagOptions,
    ): Promise<CustomerTags> => editTags(shop, id, tags, 'added', source, batch),
    removeTags: (shop: ShopRow, id: string, tags: string[]): Promise<CustomerTags> =>
      editTags(shop, id, tags, 'removed', 'app'),
  }
}

export type CustomerService = ReturnType<typeof createCustomerService>

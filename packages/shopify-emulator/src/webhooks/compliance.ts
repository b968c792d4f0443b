import type { Runtime } from '../context.ts'
import type { ShopState } from '../records.ts'
import { newId } from '../shop-extra.ts'
import { findById, type Store } from '../store.ts'
import { customersDataRequestPayload, customersRedactPayload, shopRedactPayload } from './payloads.ts'

/**
 * The platform's compliance requests, as tests and demos trigger them: what a customer or
 * the privacy law asks of the shop, sent to the app with the real payloads, signed and
 * delivered like every other webhook. Never kinder than the platform: an unknown customer
 * is an error, and shop/redact exists only for a shop whose app was uninstalled.
 */
export function complianceTriggers(deps: {
  store: Store
  runtime: Pick<Runtime, 'emit'>
  shopOf: (domain: string) => ShopState
}) {
  const customerOf = (shop: ShopState, customerId: number) => {
    const c = findById(shop.customers, customerId)
    if (!c) throw new Error(`no customer ${customerId} in ${shop.info.myshopifyDomain}`)
    return c
  }
  return {
    requestCustomerData(domain: string, customerId: number): void {
      const shop = deps.shopOf(domain)
      const payload = customersDataRequestPayload(
        shop,
        customerOf(shop, customerId),
        newId(shop, 'DataRequest'),
      )
      deps.store.changed()
      deps.runtime.emit(shop, 'customers/data_request', payload)
    },
    redactCustomer(domain: string, customerId: number): void {
      const shop = deps.shopOf(domain)
      deps.runtime.emit(shop, 'customers/redact', customersRedactPayload(shop, customerOf(shop, customerId)))
    },
    redactShop(domain: string): void {
      const shop = deps.shopOf(domain)
      if (deps.store.shopByToken(shop.installation.accessToken)) {
        throw new Error(`${domain} has the app installed: shop/redact comes only 48 hours after an uninstall`)
      }
      deps.runtime.emit(shop, 'shop/redact', shopRedactPayload(shop))
    },
  }
}

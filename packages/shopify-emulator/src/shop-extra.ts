import type { ShopState } from './records.ts'
import type { ShopExtra } from './records-extra.ts'
import { nextId } from './store.ts'

/** Id ranges for the mutation-only types, sized like the platform's. */
const idStarts: Record<string, number> = {
  SubscriptionDraft: 120_000_000_000,
  SubscriptionManualDiscount: 300_000_000,
  WebhookSubscription: 1_400_000_000_000,
  ScriptTag: 210_000_000_000,
  OnlineStoreTheme: 140_000_000_000,
  BulkOperation: 5_100_000_000_000,
  Location: 70_000_000_000,
  DeliveryProfile: 110_000_000_000,
  DeliveryLocationGroup: 120_000_000_000,
  DeliveryZone: 440_000_000_000,
  DeliveryCountry: 520_000_000_000,
  DeliveryMethodDefinition: 700_000_000_000,
  DeliveryRateDefinition: 800_000_000_000,
}

export const newId = (shop: ShopState, type: string): number => nextId(shop, type, idStarts[type] ?? 1)

const layout = `<!doctype html>
<html lang="{{ request.locale.iso_code }}">
  <head>{{ content_for_header }}</head>
  <body>{{ content_for_layout }}</body>
</html>
`
const productTemplate = JSON.stringify(
  { sections: { main: { type: 'main-product', blocks: {}, block_order: [] } }, order: ['main'] },
  null,
  2,
)

/**
 * The shop's mutation-only state, created on first use with what every real shop has: a main
 * theme, one legacy script tag (so clean-up code has something to delete) and two discount codes.
 */
export function extraOf(shop: ShopState, now: number): ShopExtra {
  if (shop.extra) return shop.extra
  const at = Math.floor(now / 1000) * 1000
  const file = (filename: string, content: string) => ({ filename, content, createdAt: at, updatedAt: at })
  shop.extra = {
    drafts: [],
    discountCodes: [
      { code: 'WELCOME10', title: 'WELCOME10', value: { percentage: 10 } },
      { code: 'TEIKI500', title: 'TEIKI500', value: { amount: 500, appliesOnEachItem: false } },
    ],
    webhookSubscriptions: [],
    scriptTags: [
      {
        id: newId(shop, 'ScriptTag'),
        src: 'https://cdn.teiki.example/legacy/widget.js',
        displayScope: 'ONLINE_STORE',
        cache: false,
        createdAt: at,
        updatedAt: at,
      },
    ],
    themes: [
      {
        id: newId(shop, 'OnlineStoreTheme'),
        name: 'Dawn',
        role: 'MAIN',
        createdAt: at,
        updatedAt: at,
        files: [
          file('config/settings_data.json', '{"current":"Default"}\n'),
          file('layout/theme.liquid', layout),
          file('templates/product.json', `${productTemplate}\n`),
        ],
      },
      {
        id: newId(shop, 'OnlineStoreTheme'),
        name: 'Dawn (copy)',
        role: 'UNPUBLISHED',
        createdAt: at,
        updatedAt: at,
        files: [],
      },
    ],
    bulkOperations: [],
    sentEmails: [],
  }
  return shop.extra
}

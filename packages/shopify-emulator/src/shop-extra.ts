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
  Metafield: 27_000_000_000_000,
  Location: 70_000_000_000,
  DeliveryProfile: 110_000_000_000,
  DeliveryLocationGroup: 120_000_000_000,
  DeliveryZone: 440_000_000_000,
  DeliveryCountry: 520_000_000_000,
  DeliveryMethodDefinition: 700_000_000_000,
  DeliveryRateDefinition: 800_000_000_000,
  WebPixel: 1_900_000_000,
  Validation: 1_200_000,
}

/**
 * Types whose ids the platform numbers across all shops: each shop starts its own stretch, so one
 * shop's theme or script tag id never names another's (the app's cross-shop 404s are tested on it).
 */
const perShopRange = new Set(['OnlineStoreTheme', 'ScriptTag', 'WebPixel', 'Validation'])

export const newId = (shop: ShopState, type: string): number =>
  nextId(shop, type, (idStarts[type] ?? 1) + (perShopRange.has(type) ? (shop.info.id % 9973) * 100_000 : 0))

const layout = `<!doctype html>
<html lang="{{ request.locale.iso_code }}">
  <head>{{ content_for_header }}</head>
  <body>{{ content_for_layout }}</body>
</html>
`
/** Dawn's product section, cut to what decides app blocks: its schema accepts `@app` blocks. */
const mainProductSection = `<section class="product">{% for block in section.blocks %}{% render block %}{% endfor %}</section>

{% schema %}
${JSON.stringify(
  {
    name: 't:sections.main-product.name',
    blocks: [
      { type: '@app' },
      { type: 'title', name: 't:sections.main-product.blocks.title.name', limit: 1 },
      { type: 'price', name: 't:sections.main-product.blocks.price.name', limit: 1 },
      { type: 'buy_buttons', name: 't:sections.main-product.blocks.buy_buttons.name', limit: 1 },
    ],
  },
  null,
  2,
)}
{% endschema %}
`
/** A theme from before Online Store 2.0: a Liquid product template, where app blocks cannot go. */
const vintageProductTemplate = `<h1>{{ product.title }}</h1>
{% form 'product', product %}<input type="hidden" name="id" value="{{ product.selected_or_first_available_variant.id }}"><button>カートに追加</button>{% endform %}
`
const productTemplate = JSON.stringify(
  { sections: { main: { type: 'main-product', blocks: {}, block_order: [] } }, order: ['main'] },
  null,
  2,
)

/**
 * The shop's mutation-only state, created on first use with what every real shop has: a main
 * theme, an unpublished vintage one and two discount codes. No script tag: an app's list holds
 * only the tags it created (resolvers/script-tags.ts).
 */
export function extraOf(shop: ShopState, now: number): ShopExtra {
  if (shop.extra) return withoutForeignScriptTags(withMainProductSection(shop.extra))
  const at = Math.floor(now / 1000) * 1000
  const file = (filename: string, content: string) => ({ filename, content, createdAt: at, updatedAt: at })
  shop.extra = {
    drafts: [],
    discountCodes: [
      { code: 'WELCOME10', title: 'WELCOME10', value: { percentage: 10 } },
      { code: 'TEIKI500', title: 'TEIKI500', value: { amount: 500, appliesOnEachItem: false } },
    ],
    webhookSubscriptions: [],
    scriptTags: [],
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
          file('sections/main-product.liquid', mainProductSection),
          file('templates/product.json', `${productTemplate}\n`),
        ],
      },
      {
        id: newId(shop, 'OnlineStoreTheme'),
        name: 'Debut',
        role: 'UNPUBLISHED',
        createdAt: at,
        updatedAt: at,
        files: [
          file('layout/theme.liquid', layout),
          file('templates/product.liquid', vintageProductTemplate),
        ],
      },
    ],
    bulkOperations: [],
    sentEmails: [],
  }
  return shop.extra
}

/**
 * A state saved before the main theme had its product section: the section is added (once), so
 * the app's app-block check reads the published Dawn as what it is, a theme that accepts them.
 */
function withMainProductSection(extra: ShopExtra): ShopExtra {
  const dawn = extra.themes.find((t) => t.role === 'MAIN' && t.name === 'Dawn')
  if (dawn && !dawn.files.some((f) => f.filename === 'sections/main-product.liquid')) {
    const at = dawn.createdAt
    dawn.files = [
      ...dawn.files,
      { filename: 'sections/main-product.liquid', content: mainProductSection, createdAt: at, updatedAt: at },
    ]
    dawn.files.sort((a, b) => a.filename.localeCompare(b.filename))
  }
  return extra
}

/**
 * A state saved before script tags had an owner holds the legacy tag the emulator used to seed,
 * which no app created: it goes (once), so the app's list starts as empty as on a real shop.
 */
function withoutForeignScriptTags(extra: ShopExtra): ShopExtra {
  if (extra.scriptTags.some((t) => typeof t.apiKey !== 'string'))
    extra.scriptTags = extra.scriptTags.filter((t) => typeof t.apiKey === 'string')
  return extra
}

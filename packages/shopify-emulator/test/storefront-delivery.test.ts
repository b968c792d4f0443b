import { describe, expect, it } from 'vitest'
import { renderAppBlock } from '../src/storefront/blocks.ts'
import { productDrop } from '../src/storefront/drops.ts'
import { createStorefrontLiquid, loadExtension } from '../src/storefront/liquid.ts'
import { coffeeShop } from './support/storefront-fixture.ts'

// Issue 25 item 2: the plans block's お届け日時 for subscriptions. The slots are rendered from the
// app-data metafield teiki.delivery (the carrier's, labelled as the contract keeps them), its
// settings go into the page for the script's calendar, and a one-time purchase hides the picker.

const ext = loadExtension()
const engine = createStorefrontLiquid(ext, {
  locale: 'ja',
  moneyFormat: '¥{{amount_no_decimals}}',
  assetUrl: (f) => `/assets/${f}`,
})

const sagawa = {
  carrier: 'sagawa',
  leadDays: 2,
  extraDaysByPrefecture: { 'JP-47': 2 },
  closedYearEnd: true,
  closedDates: ['2026-12-29'],
  horizonDays: 21,
  cutoff: '15:00',
  slots: [
    { slot: 'AM', label: '午前中', code: '01' },
    { slot: '12-14', label: '12時〜14時', code: '12' },
    { slot: '19-21', label: '19時〜21時', code: '19' },
  ],
  far_note: 'お届けまで沖縄県は+2日かかります。',
}

async function render(
  opts: { delivery?: unknown; settings?: Record<string, unknown>; oneTime?: boolean } = {},
) {
  const { shop, coffee } = coffeeShop()
  const product = productDrop(shop, coffee, { variantId: null })
  return renderAppBlock(engine, ext, {
    handle: 'subscription-plans',
    blockId: 'teiki_plans',
    sectionId: 'main',
    settings: { ...(opts.oneTime ? { preselect_subscription: false } : {}), ...opts.settings },
    page: {
      product,
      routes: { cart_add_url: '/cart/add', cart_url: '/cart', root_url: '/' },
      ...(opts.delivery === undefined
        ? {}
        : { appMetafields: { teiki: { delivery: { type: 'json', value: opts.delivery } } } }),
    },
  })
}

const picker = (html: string) => /<div class="teiki-delivery"[^>]*>[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''
const options = (select: string) =>
  [...select.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].map((m) => m[2])

describe('お届け日時 on the plans block', () => {
  it('offers the carrier’s slots, carries the settings for the calendar, and notes far prefectures', async () => {
    const html = picker(await render({ delivery: sagawa }))
    expect(html).toContain('お届け希望日')
    expect(html).toContain('配送時間帯')
    const slots = /<select data-teiki-slot>[\s\S]*?<\/select>/.exec(html)![0]
    expect(options(slots)).toEqual(['指定なし', '午前中', '12時〜14時', '19時〜21時'])
    // The dates are the script's: only 指定なし until it ran (the select keeps its size).
    expect(options(/<select data-teiki-date>[\s\S]*?<\/select>/.exec(html)![0])).toEqual(['指定なし'])
    const json = /<script type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!
    expect(JSON.parse(json)).toMatchObject({ carrier: 'sagawa', leadDays: 2, closedDates: ['2026-12-29'] })
    expect(html).toContain('お届けまで沖縄県は+2日かかります。')
    expect(html).not.toMatch(/class="teiki-delivery"[^>]*hidden/)
  })

  it('without the metafield the page carries nothing (the script then uses the defaults)', async () => {
    const html = picker(await render())
    // Shopify prints nil | json as null; the emulator's Liquid prints nothing: settingsOf takes both.
    expect(['', 'null']).toContain(/<script type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1])
    expect(options(/<select data-teiki-slot>[\s\S]*?<\/select>/.exec(html)![0])).toEqual(['指定なし'])
  })

  it('is hidden when the page opens on a one-time purchase, and absent when the merchant turns it off', async () => {
    expect(picker(await render({ delivery: sagawa, oneTime: true }))).toMatch(
      /class="teiki-delivery"[^>]*hidden/,
    )
    expect(await render({ delivery: sagawa, settings: { delivery_picker: false } })).not.toContain(
      'data-teiki-delivery',
    )
  })
})

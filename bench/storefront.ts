// `--only storefront`: the theme app extension's weight on a store and its layout stability.
// The blocks' JavaScript and CSS as a browser downloads them (gzip), and CLS of the emulated
// product page with the plans block in Chromium (5 cold loads), one of its plans priced per order
// from the app-data metafield teiki.plan_prices, with the requests the page made (prices come
// from Liquid: nothing but the page's own files is fetched).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { storefrontPlanPrices } from '@teiki/domain'
import { createEmulator } from '@teiki/shopify-emulator'
import { chromium } from 'playwright-core'
import { CHROMIUM, CHROMIUM_ARGS, measureVitals } from './web-vitals.ts'

const ASSETS = join(import.meta.dirname, '../extensions/teiki-subscriptions/assets')
const DOMAIN = 'bench-store.myshopify.com'

const gzipKB = (file: string) =>
  Math.round((gzipSync(readFileSync(join(ASSETS, file)), { level: 9 }).length / 1024) * 100) / 100

export async function benchStorefront(opts: { log: (line: string) => void }) {
  const jsGzipKB = gzipKB('teiki-blocks.js')
  const cssGzipKB = gzipKB('teiki-blocks.css')
  opts.log(`storefront block: JS ${jsGzipKB} KB gzip (≤ 10), CSS ${cssGzipKB} KB gzip`)

  // The block is placed with themeFilesUpsert, as a theme developer's tool would (exempt).
  const emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: 0 }],
    throttle: false,
    themeFilesExemption: true,
  })
  try {
    const { url } = await emulator.listen(0)
    const shop = emulator.store.shop(DOMAIN)!
    // The product sold on the most plans, and the block in the published theme, as the app adds it.
    const product = [...shop.products].sort(
      (a, b) =>
        shop.sellingPlanGroups.filter((g) => g.productIds.includes(b.id)).length -
        shop.sellingPlanGroups.filter((g) => g.productIds.includes(a.id)).length,
    )[0]!
    const themes = await emulator.graphql(DOMAIN, {
      query: '{ themes(first: 1, roles: [MAIN]) { nodes { id } } }',
    })
    const themeId = (themes.data as { themes: { nodes: Array<{ id: string }> } }).themes.nodes[0]!.id
    const uid = /^uid\s*=\s*"([^"]+)"/m.exec(
      readFileSync(join(ASSETS, '../shopify.extension.toml'), 'utf8'),
    )![1]
    const template = {
      sections: {
        main: {
          type: 'main-product',
          blocks: { teiki: { type: `shopify://apps/teiki/blocks/subscription-plans/${uid}`, settings: {} } },
          block_order: ['teiki'],
        },
      },
      order: ['main'],
    }
    await emulator.graphql(DOMAIN, {
      query: `mutation($id: ID!, $files: [OnlineStoreThemeFilesUpsertFileInput!]!) {
        themeFilesUpsert(themeId: $id, files: $files) { userErrors { message } } }`,
      variables: {
        id: themeId,
        files: [
          { filename: 'templates/product.json', body: { type: 'TEXT', value: JSON.stringify(template) } },
        ],
      },
    })
    // Its first plan priced per order by the app (回数割: 30% / 20% for 2–3 / 10% from 4), as the
    // app publishes it: the block renders three ranges from the metafield (ADR 0026).
    const plan = shop.sellingPlanGroups.find((g) => g.productIds.includes(product.id))!.sellingPlans[0]!
    const installation = await emulator.graphql(DOMAIN, { query: '{ currentAppInstallation { id } }' })
    const ownerId = (installation.data as { currentAppInstallation: { id: string } }).currentAppInstallation
      .id
    const tiers = storefrontPlanPrices(
      [
        {
          id: String(plan.id),
          platformDiscounts: [],
          rules: [1, 2, 4].map((cycle, i) => ({
            cycle,
            adjustmentType: 'PERCENTAGE' as const,
            adjustmentValue: String([30, 20, 10][i]),
          })),
        },
      ],
      'JPY',
    )
    await emulator.graphql(DOMAIN, {
      query: `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }`,
      variables: {
        m: [{ ownerId, namespace: 'teiki', key: 'plan_prices', type: 'json', value: JSON.stringify(tiers) }],
      },
    })
    const pageUrl = `${url}/s/${DOMAIN}/products/${product.handle}`
    const vitals = await measureVitals(pageUrl, { runs: 5, readySelector: '[data-teiki-plans]' })
    const requests = await pageRequests(pageUrl)
    opts.log(
      `storefront product page (${product.handle}): CLS median ${vitals.clsMedian}, max ${vitals.clsMax} (target 0); LCP median ${vitals.lcpMsMedian} ms; requests: ${requests.join(', ')}`,
    )
    return {
      blockAssets: { jsGzipKB, cssGzipKB },
      productPage: { product: product.handle, ...vitals, requests },
      targets: { jsGzipKB: 10, cls: 0 },
    }
  } finally {
    await emulator.close()
  }
}

/** What the product page fetched until it settled: its document and files, by path and type. */
async function pageRequests(pageUrl: string): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
  try {
    const page = await browser.newPage()
    const seen: string[] = []
    page.on('request', (r) => seen.push(`${r.resourceType()} ${new URL(r.url()).pathname}`))
    await page.goto(pageUrl, { waitUntil: 'networkidle' })
    return seen
  } finally {
    await browser.close()
  }
}

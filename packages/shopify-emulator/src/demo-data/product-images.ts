import { catalog } from './catalog.ts'

/**
 * The demo products' images, drawn here and served by the emulator itself
 * (`GET /cdn/products/<handle>.svg`), so the demo shows pictures with no network: an external
 * CDN would be unreachable offline and leaks each page view to a third party.
 */

export const PRODUCT_IMAGE_PREFIX = '/cdn/products/'

/** The path the platform's image URL has for a demo product (made absolute when served). */
export const productImagePath = (handle: string): string => `${PRODUCT_IMAGE_PREFIX}${handle}.svg`

// Where earlier versions of the demo data pointed (a CDN that does not exist); states saved by
// them are served the local images instead.
const LEGACY_IMAGE = /^https:\/\/cdn\.example\.jp\/teiki-demo\/products\/([a-z0-9-]+)\.jpg$/

/**
 * A stored image URL as the API answers it: local paths and the old CDN's become absolute on
 * this emulator (`baseUrl`), anything else is answered as stored.
 */
export function publicImageUrl(stored: string, baseUrl: string): string {
  if (stored.startsWith(PRODUCT_IMAGE_PREFIX)) return `${baseUrl}${stored}`
  const legacy = LEGACY_IMAGE.exec(stored)
  return legacy ? `${baseUrl}${productImagePath(legacy[1]!)}` : stored
}

// Background and accent per product type: one look per shelf of the shop.
const PALETTES: Record<string, readonly [background: string, accent: string]> = {
  コーヒー: ['#f3e7dc', '#6f4e37'],
  お茶: ['#e6f2e0', '#4f7d3a'],
  食品: ['#fdf1dc', '#c27c0e'],
  スキンケア: ['#fbe9ef', '#b8507a'],
  飲料: ['#e3f1fb', '#2f6f9f'],
  健康食品: ['#e9f5e1', '#5b8c2a'],
  ペット: ['#efe9f7', '#6b4fa0'],
}
const DEFAULT_PALETTE = ['#eeeeee', '#555555'] as const

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Demo products made outside the catalog: the big-box item (demo-data/many-lines.ts). */
const EXTRA_PRODUCTS: ReadonlyArray<{ handle: string; title: string; productType: string }> = [
  { handle: 'yoridori-tanpin', title: 'よりどり詰め合わせ', productType: '食品' },
]

/** The SVG of a demo product, or null for a handle the catalog does not have. */
export function productImageSvg(handle: string): string | null {
  const item = [...catalog, ...EXTRA_PRODUCTS].find((c) => c.handle === handle)
  if (!item) return null
  const [background, accent] = PALETTES[item.productType] ?? DEFAULT_PALETTE
  // Long names break onto two lines of at most 8 characters.
  const title = [...item.title]
  const lines = title.length > 8 ? [title.slice(0, 8).join(''), title.slice(8, 16).join('')] : [item.title]
  const text = lines
    .map(
      (line, i) =>
        `<text x="100" y="${lines.length === 1 ? 160 : 150 + i * 22}" text-anchor="middle" font-size="18" fill="${accent}" font-family="'Noto Sans CJK JP','Hiragino Sans',sans-serif">${escapeXml(line)}</text>`,
    )
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 200 200" role="img" aria-label="${escapeXml(item.title)}">
<rect width="200" height="200" rx="16" fill="${background}"/>
<rect x="68" y="32" width="64" height="80" rx="10" fill="${accent}" opacity="0.9"/>
<rect x="80" y="22" width="40" height="14" rx="4" fill="${accent}"/>
<text x="100" y="84" text-anchor="middle" font-size="26" fill="${background}" font-family="'Noto Sans CJK JP','Hiragino Sans',sans-serif">${escapeXml([...item.productType][0] ?? '')}</text>
${text}
</svg>
`
}

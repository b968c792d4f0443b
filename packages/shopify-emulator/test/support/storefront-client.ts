import type { Emulator } from '../../src/server.ts'
import { defaultBuyer } from '../../src/storefront/cart-pages.ts'
import { loadExtension } from '../../src/storefront/liquid.ts'

/** A shopper's browser on the emulated store: keeps the cart cookie, does not follow redirects. */
export function shopper(baseUrl: string, shop: string) {
  // The cookies the store set (the cart, a signed-in customer's session), as a browser keeps them.
  const jar = new Map<string, string>()
  const base = `${baseUrl}/s/${shop}`
  async function request(path: string, init: RequestInit = {}) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
    })
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';')
      const at = pair.indexOf('=')
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
      if (/max-age=0/i.test(set)) jar.delete(name)
      else jar.set(name, value)
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text() }
  }
  const form = (path: string, fields: Record<string, string>) =>
    request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
  return { base, get: (path: string) => request(path), form, request }
}

/** The theme's product template with Teiki's plans block in its main section, as the app adds it. */
export function productTemplateWithBlock(handle = 'subscription-plans'): string {
  const { uid } = loadExtension()
  return JSON.stringify({
    sections: {
      main: {
        type: 'main-product',
        blocks: { teiki: { type: `shopify://apps/teiki/blocks/${handle}/${uid}`, settings: {} } },
        block_order: ['teiki'],
      },
    },
    order: ['main'],
  })
}

/** The checkout form's default shopper, with a fixed e-mail and an empty second address line. */
const { deliveryTime: _, ...defaultShopper } = defaultBuyer(0)
export const BUYER = {
  ...defaultShopper,
  phone: defaultShopper.phone!,
  email: 'hanako.test@example.jp',
  address2: '',
}

/** The published theme's id on `shop`. */
export function mainTheme(emulator: Emulator, shop: string) {
  const extra = emulator.store.shop(shop)!.extra
  return extra?.themes.find((t) => t.role === 'MAIN')
}

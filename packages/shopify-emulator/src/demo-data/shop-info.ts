import type { InstallationRecord, ShopInfo } from '../records.ts'
import type { Rng } from './prng.ts'
import { DAY } from './schedule.ts'

export const DEMO_DOMAIN = 'teiki-demo.myshopify.com'

/** Everything the app asks for, including the theme scopes the storefront block needs. */
export const ACCESS_SCOPES: readonly string[] = [
  'read_customers',
  'write_customers',
  'read_products',
  'write_products',
  'read_orders',
  'write_orders',
  // Orders older than 60 days (order-access.ts); a merchant may decline it (ShopSpec.declinedScopes).
  'read_all_orders',
  'read_own_subscription_contracts',
  'write_own_subscription_contracts',
  'read_customer_payment_methods',
  'read_purchase_options',
  'write_purchase_options',
  'read_shipping',
  'write_shipping',
  'read_locations',
  'read_themes',
  'write_themes',
  'read_script_tags',
  'write_script_tags',
  'read_locales',
  // The web pixel (webPixelCreate): write_pixels implies read_pixels.
  'write_pixels',
  'read_customer_events',
  // The box rules at the cart (validationCreate, a validation's metafields): implies read_validations.
  'write_validations',
]

export function shopInfo(rng: Rng, domain: string): ShopInfo {
  const handle = domain.replace(/\.myshopify\.com$/, '')
  const host = `${handle}.example.jp`
  return {
    id: 60_000_000_000 + rng.int(0, 9_999_999_999),
    name: domain === DEMO_DOMAIN ? '定期便デモストア' : `${handle} ストア`,
    myshopifyDomain: domain,
    email: `owner@${host}`,
    contactEmail: `support@${host}`,
    currencyCode: 'JPY',
    ianaTimezone: 'Asia/Tokyo',
    timezoneAbbreviation: 'JST',
    timezoneOffsetMinutes: 540,
    url: `https://${host}`,
    primaryDomain: { id: 90_000_000_000 + rng.int(0, 9_999_999_999), url: `https://${host}`, host },
    plan: { displayName: 'Basic', partnerDevelopment: false, shopifyPlus: false },
  }
}

/** The app's installation: offline token, scopes and (unless disabled) the merchant's paid plan. */
export function installation(
  rng: Rng,
  domain: string,
  now: number,
  withAppPlan: boolean,
): InstallationRecord {
  const handle = domain.replace(/\.myshopify\.com$/, '')
  const createdAt = Math.floor((now - 95 * DAY) / 1000) * 1000
  const periods = Math.ceil((now - createdAt) / (30 * DAY))
  return {
    id: 500_000_000_000 + rng.int(0, 99_999_999_999),
    accessToken: `shpat_${rng.hex(32)}`,
    scopes: [...ACCESS_SCOPES],
    subscriptions: withAppPlan
      ? [
          {
            id: 28_000_000_000 + rng.int(0, 999_999_999),
            // The app's catalogue plan as the app creates it (`Teiki プロ`, ¥29,800 per 30 days):
            // the demo shows every screen.
            name: 'Teiki プロ',
            status: 'ACTIVE',
            test: true,
            trialDays: 14,
            createdAt,
            updatedAt: createdAt,
            currentPeriodEnd: createdAt + periods * 30 * DAY,
            returnUrl: `https://admin.shopify.com/store/${handle}/apps/teiki`,
            lineItems: [
              {
                id: 31_000_000_000 + rng.int(0, 999_999_999),
                plan: {
                  pricingDetails: {
                    __typename: 'AppRecurringPricing',
                    interval: 'EVERY_30_DAYS',
                    planHandle: null,
                    price: { amount: '29800.0', currencyCode: 'JPY' },
                  },
                },
              },
            ],
          },
        ]
      : [],
  }
}

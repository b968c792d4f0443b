import type { Context } from './context.ts'
import type { DeliveryProfileRecord, LocationRecord } from './records-extra.ts'
import { extraOf, newId } from './shop-extra.ts'

/** The general profile's flat rate for Japan, as a new Japanese shop would set it. */
const GENERAL_RATE_JPY = 800

/**
 * The shop's locations and delivery profiles, created on first use with what every shop has:
 * one warehouse and the general (default) profile shipping to Japan from it at a flat rate.
 * State saved before delivery profiles existed gets them here too.
 */
export function deliveryOf(ctx: Context): { locations: LocationRecord[]; profiles: DeliveryProfileRecord[] } {
  const extra = extraOf(ctx.shop, ctx.now())
  if (!extra.locations) {
    extra.locations = [{ id: newId(ctx.shop, 'Location'), name: '東京倉庫', isActive: true }]
  }
  if (!extra.deliveryProfiles) {
    const currencyCode = ctx.shop.info.currencyCode
    extra.deliveryProfiles = [
      {
        id: newId(ctx.shop, 'DeliveryProfile'),
        name: '一般プロファイル',
        default: true,
        sellingPlanGroupIds: [],
        variantIds: [],
        locationGroups: [
          {
            id: newId(ctx.shop, 'DeliveryLocationGroup'),
            locationIds: extra.locations.map((l) => l.id),
            zones: [
              {
                id: newId(ctx.shop, 'DeliveryZone'),
                name: '日本',
                countries: [
                  { id: newId(ctx.shop, 'DeliveryCountry'), code: 'JP', restOfWorld: false, provinces: [] },
                ],
                methods: [
                  {
                    id: newId(ctx.shop, 'DeliveryMethodDefinition'),
                    name: '通常配送',
                    description: null,
                    active: true,
                    rate: {
                      id: newId(ctx.shop, 'DeliveryRateDefinition'),
                      amount: currencyCode === 'JPY' ? GENERAL_RATE_JPY : 8,
                      currencyCode,
                    },
                  },
                ],
              },
            ],
          },
        ],
      },
    ]
  }
  return { locations: extra.locations, profiles: extra.deliveryProfiles }
}

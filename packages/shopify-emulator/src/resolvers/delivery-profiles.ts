import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { deliveryOf } from '../delivery-profiles.ts'
import { idOf } from '../gid.ts'
import type {
  DeliveryLocationGroupRecord,
  DeliveryProfileRecord,
  DeliveryZoneRecord,
  ShippingMethodRecord,
} from '../records-extra.ts'
import { findById } from '../store.ts'
import { manyById, manyByIdSorted } from './lookup.ts'

const COUNTRY_NAMES: Record<string, string> = { JP: '日本', US: 'アメリカ合衆国' }

type ZoneView = { zone: DeliveryZoneRecord }

export const deliveryProfileResolvers: ResolverMap = {
  QueryRoot: {
    deliveryProfiles: (_s, args, ctx: Context) => connection(deliveryOf(ctx).profiles, args),
    deliveryProfile: (_s, args: { id: string }, ctx: Context) => {
      const id = idOf(args.id, 'DeliveryProfile')
      return id === null ? null : (findById(deliveryOf(ctx).profiles, id) ?? null)
    },
    locations: (_s, args, ctx: Context) =>
      connection(
        deliveryOf(ctx).locations.filter((l) => l.isActive || args.includeInactive),
        args,
      ),
  },
  DeliveryProfile: {
    // Groups deleted since they were associated are gone from the profile too.
    sellingPlanGroups: (p: DeliveryProfileRecord, args, ctx: Context) =>
      connection(manyByIdSorted(ctx.shop.sellingPlanGroups, p.sellingPlanGroupIds), args),
    profileLocationGroups: (p: DeliveryProfileRecord, args: { locationGroupId?: string | null }) => {
      const only = args.locationGroupId ? idOf(args.locationGroupId, 'DeliveryLocationGroup') : null
      return p.locationGroups
        .filter((g) => only === null || g.id === only)
        .map((g) => ({ locationGroup: g, zones: g.zones }))
    },
  },
  DeliveryProfileLocationGroup: {
    locationGroupZones: (g: { zones: DeliveryZoneRecord[] }, args) =>
      connection(
        g.zones.map((zone) => ({ id: zone.id, zone })),
        args,
      ),
  },
  DeliveryLocationGroup: {
    locations: (g: DeliveryLocationGroupRecord, args, ctx: Context) =>
      connection(manyById(deliveryOf(ctx).locations, g.locationIds), args),
  },
  DeliveryLocationGroupZone: {
    methodDefinitions: (z: ZoneView, args) =>
      connection(
        z.zone.methods.filter((m) => args.eligible == null || m.active === args.eligible),
        args,
      ),
  },
  DeliveryCountry: {
    code: (c: DeliveryZoneRecord['countries'][number]) => ({
      countryCode: c.code,
      restOfWorld: c.restOfWorld,
    }),
    name: (c: DeliveryZoneRecord['countries'][number]) =>
      c.restOfWorld ? 'その他の地域' : (COUNTRY_NAMES[c.code ?? ''] ?? c.code),
  },
  DeliveryProvince: {
    name: (p: { code: string }) => p.code,
  },
  DeliveryMethodDefinition: {
    rateProvider: (m: ShippingMethodRecord) => ({
      __typename: 'DeliveryRateDefinition',
      id: m.rate.id,
      price: { amount: m.rate.amount, currencyCode: m.rate.currencyCode },
    }),
  },
}

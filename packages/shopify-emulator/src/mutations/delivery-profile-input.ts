import type { Context } from '../context.ts'
import { deliveryOf } from '../delivery-profiles.ts'
import { idOf } from '../gid.ts'
import type {
  DeliveryLocationGroupRecord,
  DeliveryZoneRecord,
  ShippingMethodRecord,
} from '../records-extra.ts'
import { newId } from '../shop-extra.ts'
import { findById } from '../store.ts'
import { type UserError, userError } from './common.ts'
import { parseDecimal } from './draft-input.ts'

type MethodInput = {
  id?: string | null
  name?: string | null
  description?: string | null
  active?: boolean | null
  rateDefinition?: { id?: string | null; price: { amount: string | number; currencyCode: string } } | null
  participant?: unknown
  weightConditionsToCreate?: unknown[] | null
  priceConditionsToCreate?: unknown[] | null
  conditionsToUpdate?: unknown[] | null
}
type ZoneInput = {
  id?: string | null
  name?: string | null
  countries?: Array<{
    code?: string | null
    restOfWorld?: boolean | null
    provinces?: Array<{ code: string }> | null
    includeAllProvinces?: boolean | null
  }> | null
  methodDefinitionsToCreate?: MethodInput[] | null
  methodDefinitionsToUpdate?: MethodInput[] | null
}
export type LocationGroupInput = {
  id?: string | null
  locations?: string[] | null
  locationsToAdd?: string[] | null
  locationsToRemove?: string[] | null
  zonesToCreate?: ZoneInput[] | null
  zonesToUpdate?: ZoneInput[] | null
}

/** Parts of DeliveryProfileInput the emulator does not model; a request using them is refused. */
const present = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)

/** `field` when the input uses a part the emulator does not model, else null. */
export function unsupportedPart(parts: Record<string, unknown>, field: string[]): UserError | null {
  for (const [name, value] of Object.entries(parts)) {
    if (present(value)) return userError([...field, name], `${name} is not supported by the emulator`, null)
  }
  return null
}

function method(ctx: Context, m: MethodInput, field: string[]): ShippingMethodRecord | UserError {
  const other = unsupportedPart(
    {
      id: m.id,
      participant: m.participant,
      weightConditionsToCreate: m.weightConditionsToCreate,
      priceConditionsToCreate: m.priceConditionsToCreate,
      conditionsToUpdate: m.conditionsToUpdate,
    },
    field,
  )
  if (other) return other
  const name = m.name?.trim() ?? ''
  if (name === '') return userError([...field, 'name'], "Name can't be blank", null)
  if (!m.rateDefinition) return userError([...field, 'rateDefinition'], 'Rate definition is required', null)
  const amount = parseDecimal(m.rateDefinition.price.amount)
  if (!(amount >= 0)) return userError([...field, 'rateDefinition', 'price'], 'Price must be 0 or more', null)
  const currencyCode = ctx.shop.info.currencyCode
  if (m.rateDefinition.price.currencyCode !== currencyCode)
    return userError([...field, 'rateDefinition', 'price'], `Currency must be ${currencyCode}`, null)
  return {
    id: newId(ctx.shop, 'DeliveryMethodDefinition'),
    name,
    description: m.description ?? null,
    active: m.active ?? true,
    rate: { id: newId(ctx.shop, 'DeliveryRateDefinition'), amount, currencyCode },
  }
}

function zone(ctx: Context, z: ZoneInput, field: string[]): DeliveryZoneRecord | UserError {
  const other = unsupportedPart({ id: z.id, methodDefinitionsToUpdate: z.methodDefinitionsToUpdate }, field)
  if (other) return other
  const name = z.name?.trim() ?? ''
  if (name === '') return userError([...field, 'name'], "Name can't be blank", null)
  if (!z.countries || z.countries.length === 0)
    return userError([...field, 'countries'], 'A zone needs at least one country', null)
  const methods: ShippingMethodRecord[] = []
  for (const [i, m] of (z.methodDefinitionsToCreate ?? []).entries()) {
    const made = method(ctx, m, [...field, 'methodDefinitionsToCreate', String(i)])
    if ('message' in made) return made
    methods.push(made)
  }
  return {
    id: newId(ctx.shop, 'DeliveryZone'),
    name,
    countries: z.countries.map((c) => ({
      id: newId(ctx.shop, 'DeliveryCountry'),
      code: c.restOfWorld ? null : (c.code ?? null),
      restOfWorld: c.restOfWorld ?? false,
      provinces: c.includeAllProvinces
        ? []
        : (c.provinces ?? []).map((p) => ({ id: newId(ctx.shop, 'DeliveryCountry'), code: p.code })),
    })),
    methods,
  }
}

/** A new location group of a profile (`locationGroupsToCreate`); all or nothing. */
export function locationGroupFrom(
  ctx: Context,
  input: LocationGroupInput,
  field: string[],
): DeliveryLocationGroupRecord | UserError {
  const other = unsupportedPart(
    {
      id: input.id,
      locationsToAdd: input.locationsToAdd,
      locationsToRemove: input.locationsToRemove,
      zonesToUpdate: input.zonesToUpdate,
    },
    field,
  )
  if (other) return other
  const { locations } = deliveryOf(ctx)
  const locationIds: number[] = []
  for (const gid of input.locations ?? []) {
    const id = idOf(gid, 'Location')
    if (id === null || !findById(locations, id))
      return userError([...field, 'locations'], `Location ${gid} does not exist`, null)
    locationIds.push(id)
  }
  if (locationIds.length === 0)
    return userError([...field, 'locations'], 'A location group needs at least one location', null)
  const zones: DeliveryZoneRecord[] = []
  for (const [i, z] of (input.zonesToCreate ?? []).entries()) {
    const made = zone(ctx, z, [...field, 'zonesToCreate', String(i)])
    if ('message' in made) return made
    zones.push(made)
  }
  return { id: newId(ctx.shop, 'DeliveryLocationGroup'), locationIds, zones }
}

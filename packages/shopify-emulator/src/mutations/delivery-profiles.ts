import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { deliveryOf } from '../delivery-profiles.ts'
import { idOf } from '../gid.ts'
import type { DeliveryLocationGroupRecord, DeliveryProfileRecord } from '../records-extra.ts'
import { newId } from '../shop-extra.ts'
import { findById } from '../store.ts'
import { existingIds, type UserError, userError } from './common.ts'
import { type LocationGroupInput, locationGroupFrom, unsupportedPart } from './delivery-profile-input.ts'

type ProfileInput = {
  name?: string | null
  profileLocationGroups?: LocationGroupInput[] | null
  locationGroupsToCreate?: LocationGroupInput[] | null
  locationGroupsToUpdate?: LocationGroupInput[] | null
  locationGroupsToDelete?: string[] | null
  variantsToAssociate?: string[] | null
  variantsToDissociate?: string[] | null
  zonesToDelete?: string[] | null
  methodDefinitionsToDelete?: string[] | null
  conditionsToDelete?: string[] | null
  sellingPlanGroupsToAssociate?: string[] | null
  sellingPlanGroupsToDissociate?: string[] | null
}

type Failure = { userErrors: UserError[] }

const without = (ids: readonly number[], drop: readonly number[]) => ids.filter((id) => !drop.includes(id))
const withAll = (ids: readonly number[], add: readonly number[]) =>
  [...new Set([...ids, ...add])].sort((a, b) => a - b)

/**
 * Applies a DeliveryProfileInput to `p` (a copy): name, new location groups with their zones
 * and rates, deletions of groups, zones and rates, and the variants and selling plan groups it
 * holds. A variant or selling plan group sits in one custom profile: associating it here takes
 * it out of any other. Returns the errors instead when anything in the input is wrong.
 */
function applyInput(
  ctx: Context,
  p: DeliveryProfileRecord,
  input: ProfileInput,
): { profile: DeliveryProfileRecord; moved: { groups: number[]; variants: number[] } } | Failure {
  const fail = (e: UserError) => ({ userErrors: [e] })
  const unsupported = unsupportedPart(
    { locationGroupsToUpdate: input.locationGroupsToUpdate, conditionsToDelete: input.conditionsToDelete },
    ['profile'],
  )
  if (unsupported) return fail(unsupported)
  if (input.name !== undefined && (input.name ?? '').trim() === '')
    return fail(userError(['profile', 'name'], "Name can't be blank", null))
  const groupsIn = existingIds(
    ctx.shop.sellingPlanGroups,
    input.sellingPlanGroupsToAssociate,
    'SellingPlanGroup',
    ['profile', 'sellingPlanGroupsToAssociate'],
  )
  if (!Array.isArray(groupsIn)) return fail(groupsIn)
  const variantsIn = existingIds(ctx.shop.variants, input.variantsToAssociate, 'ProductVariant', [
    'profile',
    'variantsToAssociate',
  ])
  if (!Array.isArray(variantsIn)) return fail(variantsIn)
  if (p.default && groupsIn.length > 0)
    return fail(
      userError(
        ['profile', 'sellingPlanGroupsToAssociate'],
        'Selling plan groups cannot be associated with the general profile',
        null,
      ),
    )
  const groupsOut = (input.sellingPlanGroupsToDissociate ?? []).map((g) => idOf(g, 'SellingPlanGroup') ?? -1)
  const variantsOut = (input.variantsToDissociate ?? []).map((g) => idOf(g, 'ProductVariant') ?? -1)
  const created: DeliveryLocationGroupRecord[] = []
  const toCreate = [...(input.locationGroupsToCreate ?? []), ...(input.profileLocationGroups ?? [])]
  for (const [i, g] of toCreate.entries()) {
    const made = locationGroupFrom(ctx, g, ['profile', 'locationGroupsToCreate', String(i)])
    if ('message' in made) return fail(made)
    created.push(made)
  }
  const drop = (gids: string[] | null | undefined, type: string) =>
    new Set((gids ?? []).map((g) => idOf(g, type) ?? -1))
  const groupsGone = drop(input.locationGroupsToDelete, 'DeliveryLocationGroup')
  const zonesGone = drop(input.zonesToDelete, 'DeliveryZone')
  const methodsGone = drop(input.methodDefinitionsToDelete, 'DeliveryMethodDefinition')
  const locationGroups = [...p.locationGroups.filter((g) => !groupsGone.has(g.id)), ...created].map((g) => ({
    ...g,
    zones: g.zones
      .filter((z) => !zonesGone.has(z.id))
      .map((z) => ({ ...z, methods: z.methods.filter((m) => !methodsGone.has(m.id)) })),
  }))
  return {
    profile: {
      ...p,
      name: input.name?.trim() || p.name,
      sellingPlanGroupIds: withAll(without(p.sellingPlanGroupIds, groupsOut), groupsIn),
      variantIds: withAll(without(p.variantIds, variantsOut), variantsIn),
      locationGroups,
    },
    moved: { groups: groupsIn, variants: variantsIn },
  }
}

/** Runs `build`; a refused input hands back the ids it took, so a failed call leaves no trace. */
function atomically<T extends object>(ctx: Context, build: () => T | Failure): T | Failure {
  deliveryOf(ctx)
  const ids = { ...ctx.shop.nextIds }
  const result = build()
  if ('userErrors' in result) ctx.shop.nextIds = ids
  return result
}

function store(
  ctx: Context,
  profile: DeliveryProfileRecord,
  moved: { groups: number[]; variants: number[] },
) {
  const { profiles } = deliveryOf(ctx)
  for (const [i, other] of profiles.entries()) {
    if (other.id === profile.id) profiles[i] = profile
    else if (!other.default)
      profiles[i] = {
        ...other,
        sellingPlanGroupIds: without(other.sellingPlanGroupIds, moved.groups),
        variantIds: without(other.variantIds, moved.variants),
      }
  }
  if (!findById(profiles, profile.id)) profiles.push(profile)
  ctx.store.changed()
}

export const deliveryProfileMutations: ResolverMap = {
  Mutation: {
    deliveryProfileCreate: (_s, args: { profile: ProfileInput }, ctx: Context) => {
      const result = atomically(ctx, () => {
        if ((args.profile.name ?? '').trim() === '')
          return { userErrors: [userError(['profile', 'name'], "Name can't be blank", null)] }
        const blank: DeliveryProfileRecord = {
          id: newId(ctx.shop, 'DeliveryProfile'),
          name: args.profile.name!.trim(),
          default: false,
          sellingPlanGroupIds: [],
          variantIds: [],
          locationGroups: [],
        }
        return applyInput(ctx, blank, args.profile)
      })
      if ('userErrors' in result) return { profile: null, userErrors: result.userErrors }
      store(ctx, result.profile, result.moved)
      return { profile: result.profile, userErrors: [] }
    },
    deliveryProfileUpdate: (_s, args: { id: string; profile: ProfileInput }, ctx: Context) => {
      const id = idOf(args.id, 'DeliveryProfile')
      const current = id === null ? undefined : findById(deliveryOf(ctx).profiles, id)
      if (!current)
        return { profile: null, userErrors: [userError(['id'], 'Profile could not be updated.', null)] }
      const result = atomically(ctx, () => applyInput(ctx, current, args.profile))
      if ('userErrors' in result) return { profile: null, userErrors: result.userErrors }
      store(ctx, result.profile, result.moved)
      return { profile: result.profile, userErrors: [] }
    },
  },
}

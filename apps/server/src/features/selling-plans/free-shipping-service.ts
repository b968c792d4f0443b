import type { FreeShippingExist, FreeShippingUpdate } from '@teiki/contract'
import { AppError } from '../../http/app-error.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { createDeliveryProfile } from '../../platform/operations/delivery-profile-create.ts'
import { profileHoldsGroup } from '../../platform/operations/delivery-profile-selling-plan-groups.ts'
import { updateDeliveryProfile } from '../../platform/operations/delivery-profile-update.ts'
import { fetchDeliveryProfiles } from '../../platform/operations/delivery-profiles.ts'
import { fetchActiveLocationIds } from '../../platform/operations/locations.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { requireGroup, type SellingPlanServiceDeps } from './service.ts'

// Free shipping for a selling plan group (spec §7 "free-shipping-profile"): the app's own
// delivery profile, with a ¥0 rate to all of Japan from the shop's active locations. A group
// the profile holds ships free when bought with one of its plans (the platform applies a
// profile's rates to what is sold with its groups); a group sits in one custom profile at a
// time. The profile is found by its name and created the first time a group is made free.

export const FREE_SHIPPING_PROFILE_NAME = '定期便送料無料（Teiki）'
const LABEL = '送料無料の設定'

async function findProfileId(client: AdminClient): Promise<string | null> {
  const profiles = await fetchDeliveryProfiles(client)
  return profiles.find((p) => !p.default && p.name === FREE_SHIPPING_PROFILE_NAME)?.id ?? null
}

/** The profile's input: Japan, every prefecture, one ¥0 rate, shipped from every active location. */
function freeProfile(locationIds: string[], currencyCode: string, groupGid: string) {
  return {
    name: FREE_SHIPPING_PROFILE_NAME,
    locationGroupsToCreate: [
      {
        locations: locationIds,
        zonesToCreate: [
          {
            name: '日本',
            countries: [{ code: 'JP', includeAllProvinces: true }],
            methodDefinitionsToCreate: [
              {
                name: '送料無料（定期便）',
                active: true,
                rateDefinition: { price: { amount: '0', currencyCode } },
              },
            ],
          },
        ],
      },
    ],
    sellingPlanGroupsToAssociate: [groupGid],
  }
}

export function createFreeShippingService(deps: SellingPlanServiceDeps) {
  return {
    /** Whether the profile exists and, for a group of the shop, whether it ships free. */
    async exist(shop: ShopRow, groupId: string | undefined): Promise<FreeShippingExist> {
      if (groupId !== undefined) await requireGroup(deps.db, shop, groupId)
      const client = deps.clients.clientFor(shop)
      try {
        const profileId = await findProfileId(client)
        const free =
          groupId === undefined
            ? null
            : profileId !== null &&
              (await profileHoldsGroup(client, profileId, toGid('SellingPlanGroup', groupId)))
        return { exists: profileId !== null, profileId, free }
      } catch (error) {
        throw platformError(error, LABEL)
      }
    },

    /** Puts the group in the profile (creating it the first time) or takes it out. Idempotent. */
    async update(shop: ShopRow, groupId: string, free: boolean): Promise<FreeShippingUpdate> {
      await requireGroup(deps.db, shop, groupId)
      const client = deps.clients.clientFor(shop)
      const groupGid = toGid('SellingPlanGroup', groupId)
      try {
        let profileId = await findProfileId(client)
        if (free && profileId === null) {
          const locations = await fetchActiveLocationIds(client)
          if (locations.length === 0)
            throw new AppError(
              'PLATFORM_USER_ERROR',
              'ストアに有効なロケーションがないため、送料無料の配送プロファイルを作成できません。',
            )
          profileId = await createDeliveryProfile(
            client,
            freeProfile(locations, shop.currency_code, groupGid),
          )
        } else if (profileId !== null) {
          await updateDeliveryProfile(
            client,
            profileId,
            free
              ? { sellingPlanGroupsToAssociate: [groupGid] }
              : { sellingPlanGroupsToDissociate: [groupGid] },
          )
        }
        return { sellingPlanGroupId: groupId, free, profileId }
      } catch (error) {
        throw platformError(error, LABEL)
      }
    },
  }
}

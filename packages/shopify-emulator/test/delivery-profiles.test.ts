import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

// Delivery profiles (the app's free-shipping switch for a selling plan group): the general
// profile every shop has, a profile created with a zone and a ¥0 rate, selling plan groups
// associated and dissociated, and the refusals, which change nothing.

type Profile = {
  id: string
  name: string
  default: boolean
  sellingPlanGroups: { nodes: Array<{ id: string }> }
  profileLocationGroups: Array<{
    locationGroup: { id: string; locations: { nodes: Array<{ id: string }> } }
    locationGroupZones: {
      nodes: Array<{
        zone: { name: string; countries: Array<{ code: { countryCode: string | null } }> }
        methodDefinitions: {
          nodes: Array<{
            name: string
            rateProvider: { __typename: string; price: { amount: string; currencyCode: string } }
          }>
        }
      }>
    }
  }>
}

describe('delivery profiles', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const groupGid = (i: number) => toGid('SellingPlanGroup', shop().sellingPlanGroups[i]!.id)

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())
  beforeEach(() => emulator.faults.reset())

  const profiles = async (): Promise<Profile[]> =>
    (await gql(emulator, m.deliveryProfiles, { first: 5 })).deliveryProfiles.nodes

  it('a shop has one location and the general profile shipping to Japan at ¥800', async () => {
    const locations = (await gql(emulator, m.locations, { first: 5 })).locations.nodes
    expect(locations).toEqual([
      { id: expect.stringMatching(/^gid:\/\/shopify\/Location\/\d+$/), name: '東京倉庫', isActive: true },
    ])
    const [general] = await profiles()
    expect(general).toMatchObject({
      name: '一般プロファイル',
      default: true,
      sellingPlanGroups: { nodes: [] },
    })
    const zone = general!.profileLocationGroups[0]!.locationGroupZones.nodes[0]!
    expect(zone.zone).toMatchObject({ name: '日本', countries: [{ code: { countryCode: 'JP' } }] })
    expect(zone.methodDefinitions.nodes[0]!.rateProvider).toEqual({
      __typename: 'DeliveryRateDefinition',
      id: expect.stringMatching(/^gid:\/\/shopify\/DeliveryRateDefinition\//),
      price: { amount: '800.0', currencyCode: 'JPY' },
    })
    expect(general!.profileLocationGroups[0]!.locationGroup.locations.nodes[0]!.id).toBe(locations[0].id)
  })

  it('creates a free-shipping profile for a group, moves a group between profiles, dissociates', async () => {
    const [location] = (await gql(emulator, m.locations, { first: 5 })).locations.nodes
    const free = {
      name: '定期便送料無料',
      locationGroupsToCreate: [
        {
          locations: [location.id],
          zonesToCreate: [
            {
              name: '日本',
              countries: [{ code: 'JP', includeAllProvinces: true }],
              methodDefinitionsToCreate: [
                {
                  name: '送料無料',
                  active: true,
                  rateDefinition: { price: { amount: '0', currencyCode: 'JPY' } },
                },
              ],
            },
          ],
        },
      ],
      sellingPlanGroupsToAssociate: [groupGid(0)],
    }
    const created = (await gql(emulator, m.deliveryProfileCreate, { profile: free })).deliveryProfileCreate
    expect(created.userErrors).toEqual([])
    const profile: Profile = created.profile
    expect(profile).toMatchObject({ name: '定期便送料無料', default: false })
    expect(profile.sellingPlanGroups.nodes.map((g) => g.id)).toEqual([groupGid(0)])
    const method = profile.profileLocationGroups[0]!.locationGroupZones.nodes[0]!.methodDefinitions.nodes[0]!
    expect(method).toMatchObject({
      name: '送料無料',
      rateProvider: { price: { amount: '0.0', currencyCode: 'JPY' } },
    })

    // A second custom profile takes group 0 over: a group sits in one custom profile.
    const other = (
      await gql(emulator, m.deliveryProfileCreate, {
        profile: { name: '別プロファイル', sellingPlanGroupsToAssociate: [groupGid(0), groupGid(1)] },
      })
    ).deliveryProfileCreate.profile as Profile
    const after = await gql(emulator, m.deliveryProfile, { id: profile.id })
    expect(after.deliveryProfile.sellingPlanGroups.nodes).toEqual([])
    expect(other.sellingPlanGroups.nodes.map((g) => g.id)).toEqual([groupGid(0), groupGid(1)])

    const updated = (
      await gql(emulator, m.deliveryProfileUpdate, {
        id: profile.id,
        profile: { sellingPlanGroupsToAssociate: [groupGid(1)] },
      })
    ).deliveryProfileUpdate
    expect(updated.userErrors).toEqual([])
    expect(updated.profile.sellingPlanGroups.nodes.map((g: { id: string }) => g.id)).toEqual([groupGid(1)])
    const dissociated = (
      await gql(emulator, m.deliveryProfileUpdate, {
        id: profile.id,
        profile: { sellingPlanGroupsToDissociate: [groupGid(1)] },
      })
    ).deliveryProfileUpdate
    expect(dissociated.profile.sellingPlanGroups.nodes).toEqual([])
    expect((await profiles()).map((p) => p.name)).toEqual([
      '一般プロファイル',
      '定期便送料無料',
      '別プロファイル',
    ])
  })

  it('refuses an unknown group or location, a blank name, the general profile, and changes nothing', async () => {
    const before = JSON.stringify(shop().extra?.deliveryProfiles)
    const ids = JSON.stringify(shop().nextIds)
    const refusals: Array<[string, Record<string, unknown>, string[]]> = [
      [m.deliveryProfileCreate, { profile: { name: '  ' } }, ['profile', 'name']],
      [
        m.deliveryProfileCreate,
        { profile: { name: 'x', sellingPlanGroupsToAssociate: [toGid('SellingPlanGroup', 1)] } },
        ['profile', 'sellingPlanGroupsToAssociate'],
      ],
      [
        m.deliveryProfileCreate,
        {
          profile: {
            name: 'x',
            locationGroupsToCreate: [
              {
                locations: [toGid('Location', 1)],
                zonesToCreate: [{ name: 'z', countries: [{ code: 'JP' }] }],
              },
            ],
          },
        },
        ['profile', 'locationGroupsToCreate', '0', 'locations'],
      ],
      [
        m.deliveryProfileUpdate,
        { id: (await profiles())[0]!.id, profile: { sellingPlanGroupsToAssociate: [groupGid(2)] } },
        ['profile', 'sellingPlanGroupsToAssociate'],
      ],
      [m.deliveryProfileUpdate, { id: toGid('DeliveryProfile', 1), profile: { name: 'x' } }, ['id']],
    ]
    for (const [doc, variables, field] of refusals) {
      const data = await gql(emulator, doc, variables)
      const payload = data.deliveryProfileCreate ?? data.deliveryProfileUpdate
      expect(payload.profile).toBeNull()
      expect(payload.userErrors).toEqual([{ field, message: expect.any(String) }])
    }
    expect(JSON.stringify(shop().extra?.deliveryProfiles)).toBe(before)
    expect(JSON.stringify(shop().nextIds)).toBe(ids)
  })

  it('failMutation answers the injected user error and creates nothing', async () => {
    const count = (await profiles()).length
    emulator.faults.failMutation('deliveryProfileCreate', { message: 'Profile could not be created' })
    const data = await gql(emulator, m.deliveryProfileCreate, { profile: { name: '送料無料' } })
    expect(data.deliveryProfileCreate).toEqual({
      profile: null,
      userErrors: [{ field: null, message: 'Profile could not be created' }],
    })
    expect((await profiles()).length).toBe(count)
  })

  it('a deleted group leaves the profile', async () => {
    const g = groupGid(2)
    const created = (
      await gql(emulator, m.deliveryProfileCreate, {
        profile: { name: '一時', sellingPlanGroupsToAssociate: [g] },
      })
    ).deliveryProfileCreate.profile as Profile
    expect(created.sellingPlanGroups.nodes).toHaveLength(1)
    expect(
      (await gql(emulator, m.sellingPlanGroupDelete, { id: g })).sellingPlanGroupDelete.userErrors,
    ).toEqual([])
    const after = await gql(emulator, m.deliveryProfile, { id: created.id })
    expect(after.deliveryProfile.sellingPlanGroups.nodes).toEqual([])
  })
})

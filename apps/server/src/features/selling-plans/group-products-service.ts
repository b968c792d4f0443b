import type { GroupProductsChange, GroupVariants, SellingPlanGroupSummary } from '@teiki/contract'
import { GROUP_VARIANTS_PAGE_SIZE } from '@teiki/contract'
import { notFound } from '../../http/app-error.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { idFromGid, toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchSellingPlanGroup } from '../../platform/operations/selling-plan-group.ts'
import {
  addProducts,
  addProductVariants,
  removeProducts,
  removeProductVariants,
} from '../../platform/operations/selling-plan-group-resources.ts'
import { fetchSellingPlanGroupVariants } from '../../platform/operations/selling-plan-group-variants.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  GROUP_NOT_FOUND,
  requireGroup,
  type SellingPlanService,
  type SellingPlanServiceDeps,
} from './service.ts'

/** Products go in calls of up to 250 ids (the platform's input cap), variants 100 at a time (spec §9). */
const PRODUCTS_PER_CALL = 250
const VARIANTS_PER_CALL = 100

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

type Change = Required<{ [K in keyof GroupProductsChange]: string[] }>

/** The platform calls of a change, in order: removals first, then additions. */
function callsOf(change: Change) {
  type Call = (client: AdminClient, gid: string) => Promise<void>
  const calls: Call[] = []
  const add = (
    ids: string[],
    type: string,
    size: number,
    send: (c: AdminClient, g: string, ids: string[]) => Promise<void>,
  ) => {
    for (const part of chunks(ids, size))
      calls.push((c, g) =>
        send(
          c,
          g,
          part.map((id) => toGid(type, id)),
        ),
      )
  }
  add(change.removeProductIds, 'Product', PRODUCTS_PER_CALL, removeProducts)
  add(change.removeVariantIds, 'ProductVariant', VARIANTS_PER_CALL, removeProductVariants)
  add(change.addProductIds, 'Product', PRODUCTS_PER_CALL, addProducts)
  add(change.addVariantIds, 'ProductVariant', VARIANTS_PER_CALL, addProductVariants)
  return calls
}

export function createGroupProductsService(deps: SellingPlanServiceDeps & { groups: SellingPlanService }) {
  return {
    /**
     * Adds and removes products and variants through the platform's group mutations, then
     * mirrors the group as the platform has it (its counts). When a call is refused, what the
     * calls before it changed is still mirrored, and the refusal is the answer (422).
     */
    async change(shop: ShopRow, groupId: string, change: Change): Promise<SellingPlanGroupSummary> {
      await requireGroup(deps.db, shop, groupId)
      const client = deps.clients.clientFor(shop)
      const gid = toGid('SellingPlanGroup', groupId)
      let failure: unknown = null
      let sent = 0
      for (const call of callsOf(change)) {
        try {
          await call(client, gid)
          sent += 1
        } catch (error) {
          failure = error
          break
        }
      }
      if (sent > 0) {
        try {
          const group = await fetchSellingPlanGroup(client, gid)
          if (group) await deps.groups.mirror(shop, group)
        } catch {
          // The change is made; the group's update webhook brings it to the mirror.
        }
      }
      if (failure) throw platformError(failure, '販売プランの商品の変更')
      return deps.groups.summary(shop, groupId)
    },

    /** One page (100) of the group's variants, read live. */
    async variants(shop: ShopRow, groupId: string, after: string | undefined): Promise<GroupVariants> {
      await requireGroup(deps.db, shop, groupId)
      let page: Awaited<ReturnType<typeof fetchSellingPlanGroupVariants>>
      try {
        page = await fetchSellingPlanGroupVariants(deps.clients.clientFor(shop), {
          id: toGid('SellingPlanGroup', groupId),
          first: GROUP_VARIANTS_PAGE_SIZE,
          after: after ?? null,
        })
      } catch (error) {
        throw platformError(error, '販売プランのバリエーションの読み込み')
      }
      if (!page) throw notFound(GROUP_NOT_FOUND)
      return {
        variants: page.nodes.map((v) => ({
          id: idFromGid(v.id),
          title: v.title,
          productId: idFromGid(v.product.id),
          productTitle: v.product.title,
        })),
        hasNextPage: page.pageInfo.hasNextPage,
        endCursor: page.pageInfo.endCursor,
      }
    },
  }
}

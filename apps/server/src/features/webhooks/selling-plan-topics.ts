import { idFromGid } from '../../platform/gid.ts'
import { fetchSellingPlanGroup } from '../../platform/operations/selling-plan-group.ts'
import {
  hasSellingPlanGroup,
  mirrorSellingPlanGroup,
  removeSellingPlanGroup,
} from '../../sync/selling-plan-groups-repo.ts'
import { type Apply, gidFrom, requireClient, type TopicHandler } from './handler.ts'

/**
 * selling_plan_groups/create|update: the group is read back from the platform (its current
 * state, whatever order deliveries come in, so a replay writes the same rows again). Not found
 * there means another shop's group, or a delete on its way or already applied: nothing to write.
 */
export const sellingPlanGroupTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'SellingPlanGroup')
    if (!gid) return null
    const group = await fetchSellingPlanGroup(requireClient(ctx), gid)
    if (!group) return null
    return async (tx) => mirrorSellingPlanGroup(tx, ctx.shop.id, group)
  },
}

/**
 * selling_plan_groups/delete: the row goes, its plans cascade; only for a group this shop's
 * mirror has and once the platform, asked with the header shop's token, no longer has it. The
 * topic is not signed: a body naming a live group must not delete it from the mirror. A group
 * the mirror does not have (another shop's, or a replay of a delete already applied) leaves
 * nothing to do, so nothing is recorded.
 */
export const sellingPlanGroupDeleteTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'SellingPlanGroup')
    if (!gid) return null
    const id = idFromGid(gid)
    if (!(await hasSellingPlanGroup(ctx.db, ctx.shop.id, id))) return null
    if (await fetchSellingPlanGroup(requireClient(ctx), gid)) {
      ctx.log.info(
        { shop: ctx.shop.domain, gid },
        'selling_plan_groups/delete of a group the platform still has',
      )
      return null
    }
    return async (tx) => removeSellingPlanGroup(tx, ctx.shop.id, id)
  },
}

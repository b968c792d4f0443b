import { idFromGid } from '../../platform/gid.ts'
import { fetchSellingPlanGroup } from '../../platform/operations/selling-plan-group.ts'
import { upsertSellingPlanGroups } from '../../sync/mirror-repo.ts'
import { sellingPlanGroupRecord, sellingPlanRecords } from '../../sync/records.ts'
import { type Apply, gidFrom, nothing, requireClient, type TopicHandler } from './handler.ts'
import { deleteSellingPlanGroup, deleteSellingPlansNotIn } from './repo.ts'

/**
 * selling_plan_groups/create|update: the group is read back from the platform (its current
 * state, whatever order deliveries come in). Gone there means a delete is on its way or
 * already applied: nothing to write.
 */
export const sellingPlanGroupTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    const gid = gidFrom(ctx.payload, 'SellingPlanGroup')
    if (!gid) return nothing
    const group = await fetchSellingPlanGroup(requireClient(ctx), gid)
    if (!group) return nothing
    const record = sellingPlanGroupRecord(group)
    const plans = sellingPlanRecords(group)
    return async (tx) => {
      await upsertSellingPlanGroups(tx, ctx.shop.id, [record], plans)
      await deleteSellingPlansNotIn(
        tx,
        ctx.shop.id,
        record.id,
        plans.map((p) => p.id),
      )
    }
  },
}

/** selling_plan_groups/delete: the row goes, its plans cascade. */
export const sellingPlanGroupDeleteTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    const gid = gidFrom(ctx.payload, 'SellingPlanGroup')
    if (!gid) return nothing
    const id = idFromGid(gid)
    return async (tx) => deleteSellingPlanGroup(tx, ctx.shop.id, id)
  },
}

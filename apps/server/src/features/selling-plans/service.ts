import type {
  SellingPlanGroupDetail,
  SellingPlanGroupInput,
  SellingPlanGroupList,
  SellingPlanGroupSummary,
  SellingPlanList,
} from '@teiki/contract'
import { SELLING_PLAN_GROUP_PAGE_SIZE } from '@teiki/contract'
import { customCycleDiscountsOf, type SellingPlanForm } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { toGid } from '../../platform/gid.ts'
import { forMerchant, platformError } from '../../platform/merchant-errors.ts'
import type { PlatformSellingPlanGroup } from '../../platform/operations/selling-plan-fragments.ts'
import { fetchSellingPlanGroup } from '../../platform/operations/selling-plan-group.ts'
import { createSellingPlanGroup } from '../../platform/operations/selling-plan-group-create.ts'
import { deleteSellingPlanGroup } from '../../platform/operations/selling-plan-group-delete.ts'
import { fetchSellingPlanGroupDetail } from '../../platform/operations/selling-plan-group-detail.ts'
import { updateSellingPlanGroup } from '../../platform/operations/selling-plan-group-update.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  hasSellingPlanGroup,
  mirrorSellingPlanGroup,
  removeSellingPlanGroup,
} from '../../sync/selling-plan-groups-repo.ts'
import { planView, sellingPlanInput } from './plan-mapping.ts'
import {
  cycleDiscountsOf,
  findGroup,
  groupHasCycleDiscounts,
  groupPlans,
  listGroups,
  replaceCycleDiscounts,
} from './repo.ts'
import { publishPlanPrices } from './storefront-prices.ts'
import { validPlanForms } from './validation.ts'

export const GROUP_NOT_FOUND = '販売プランが見つかりません'

export type SellingPlanServiceDeps = {
  db: Db
  clients: ShopClients
  log?: { warn(obj: object, msg: string): void }
}

/**
 * The storefront's copy of the custom cycle discounts (teiki.plan_prices) after a group change
 * that touched a plan with them. The group is saved on the platform by then: a failure is
 * logged, and the next save of the group or of its rules publishes again (ADR 0026).
 */
async function republish(deps: SellingPlanServiceDeps, shop: ShopRow, touched: boolean): Promise<void> {
  if (!touched) return
  try {
    await publishPlanPrices(deps.db, deps.clients.clientFor(shop), shop)
  } catch (error) {
    deps.log?.warn({ err: error, shop: shop.domain }, 'teiki.plan_prices not published after a group change')
  }
}

const hasMulti = (forms: readonly SellingPlanForm[]) =>
  forms.some((f) => f.discountType === 'recurringMultiDiscount')

/** 404 unless the group is in the shop's mirror: before any platform call. */
export async function requireGroup(db: DbClient, shop: ShopRow, groupId: string): Promise<void> {
  if (!(await hasSellingPlanGroup(db, shop.id, groupId))) throw notFound(GROUP_NOT_FOUND)
}

/**
 * The app's custom cycle discounts of the group's plans, written after the platform took the
 * plans: a recurring-multi plan gets its rules, every other plan none. Plans are matched by
 * name (the platform keeps names unique within a group).
 */
async function writeGroupRules(
  tx: DbClient,
  shop: ShopRow,
  group: PlatformSellingPlanGroup,
  forms: readonly SellingPlanForm[],
): Promise<void> {
  const byName = new Map(forms.map((f) => [(f.name ?? '').trim(), f]))
  for (const plan of group.sellingPlans.nodes) {
    const form = byName.get(plan.name)
    const rules = form ? customCycleDiscountsOf(form, shop.currency_code) : []
    await replaceCycleDiscounts(tx, shop.id, plan.id.slice(plan.id.lastIndexOf('/') + 1), rules)
  }
}

function groupInput(shop: ShopRow, body: SellingPlanGroupInput) {
  return {
    name: body.name.trim(),
    merchantCode: body.merchantCode?.trim() || body.name.trim(),
    description: body.description ?? null,
    options: [body.option?.trim() || 'お届け頻度'],
    currency: shop.currency_code,
  }
}

const lastPart = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1)

async function summaryOf(deps: SellingPlanServiceDeps, shop: ShopRow, groupId: string) {
  const found = await findGroup(deps.db, shop.id, groupId)
  if (!found) throw notFound(GROUP_NOT_FOUND)
  return found
}

/** The group as the platform answered it, into the mirror (with its plans' rules when given). */
async function mirrorGroup(
  deps: SellingPlanServiceDeps,
  shop: ShopRow,
  group: PlatformSellingPlanGroup,
  forms?: SellingPlanForm[],
): Promise<SellingPlanGroupSummary> {
  await withTransaction(deps.db, async (tx) => {
    await mirrorSellingPlanGroup(tx, shop.id, group)
    if (forms) await writeGroupRules(tx, shop, group, forms)
  })
  return summaryOf(deps, shop, lastPart(group.id))
}

/** The group's plans as the mirror holds them, with the app's rules (spec §7). */
async function plansOf(
  deps: SellingPlanServiceDeps,
  shop: ShopRow,
  groupId: string,
): Promise<SellingPlanList> {
  await requireGroup(deps.db, shop, groupId)
  const plans = await groupPlans(deps.db, shop.id, groupId)
  const rules = await cycleDiscountsOf(
    deps.db,
    shop.id,
    plans.map((p) => p.id),
  )
  return { sellingPlanGroupId: groupId, plans: plans.map((p) => planView(p, rules.get(p.id) ?? [])) }
}

/** The group as the platform has it now, for the editor. */
async function detailOf(
  deps: SellingPlanServiceDeps,
  shop: ShopRow,
  groupId: string,
): Promise<SellingPlanGroupDetail> {
  await requireGroup(deps.db, shop, groupId)
  const gid = toGid('SellingPlanGroup', groupId)
  const group = await forMerchant('販売プランの読み込み', () =>
    fetchSellingPlanGroupDetail(deps.clients.clientFor(shop), gid),
  )
  if (!group) throw notFound(GROUP_NOT_FOUND)
  const planIds = group.sellingPlans.nodes.map((p) => lastPart(p.id))
  const rules = await cycleDiscountsOf(deps.db, shop.id, planIds)
  return {
    id: groupId,
    name: group.name,
    merchantCode: group.merchantCode,
    description: group.description,
    option: group.options[0] ?? 'お届け頻度',
    productsCount: group.productsCount?.count ?? 0,
    productVariantsCount: group.productVariantsCount?.count ?? 0,
    products: group.products.nodes.map((p) => ({
      id: lastPart(p.id),
      title: p.title,
      imageUrl: p.featuredImage?.url ?? null,
    })),
    plans: group.sellingPlans.nodes.map((p, i) => planView(p, rules.get(planIds[i]!) ?? [])),
    currencyCode: shop.currency_code,
  }
}

async function createGroup(
  deps: SellingPlanServiceDeps,
  shop: ShopRow,
  body: SellingPlanGroupInput,
): Promise<SellingPlanGroupSummary> {
  const forms = validPlanForms(body)
  const { currency, ...input } = groupInput(shop, body)
  const group = await forMerchant('販売プランの作成', () =>
    createSellingPlanGroup(
      deps.clients.clientFor(shop),
      { ...input, sellingPlansToCreate: forms.map((f) => sellingPlanInput(f, currency)) },
      { productIds: (body.productIds ?? []).map((id) => toGid('Product', id)), productVariantIds: [] },
    ),
  )
  const summary = await mirrorGroup(deps, shop, group, forms)
  await republish(deps, shop, hasMulti(forms))
  return summary
}

/**
 * Every plan of the group is in the body: plans with an id are updated, those without are
 * created, and the group's plans the body leaves out are deleted. A plan id that is not one of
 * the group's (another group's, another shop's) is a 400 before anything is sent.
 */
async function updateGroup(
  deps: SellingPlanServiceDeps,
  shop: ShopRow,
  groupId: string,
  body: SellingPlanGroupInput,
): Promise<SellingPlanGroupSummary> {
  await requireGroup(deps.db, shop, groupId)
  const forms = validPlanForms(body)
  const hadRules = await groupHasCycleDiscounts(deps.db, shop.id, groupId)
  const client = deps.clients.clientFor(shop)
  const gid = toGid('SellingPlanGroup', groupId)
  const current = await forMerchant('販売プランの保存', () => fetchSellingPlanGroup(client, gid))
  if (!current) throw notFound(GROUP_NOT_FOUND)
  const existing = new Set(current.sellingPlans.nodes.map((p) => lastPart(p.id)))
  for (const plan of body.plans) {
    if (plan.id !== undefined && !existing.has(plan.id))
      throw new AppError('INVALID_INPUT', `プランID ${plan.id} はこの販売プランのプランではありません`)
  }
  const kept = new Set(body.plans.flatMap((p) => (p.id ? [p.id] : [])))
  const { currency, ...input } = groupInput(shop, body)
  let group: PlatformSellingPlanGroup
  try {
    group = await updateSellingPlanGroup(client, gid, {
      ...input,
      sellingPlansToUpdate: body.plans.flatMap((p, i) =>
        p.id ? [sellingPlanInput(forms[i]!, currency, p.id)] : [],
      ),
      sellingPlansToCreate: body.plans.flatMap((p, i) =>
        p.id ? [] : [sellingPlanInput(forms[i]!, currency)],
      ),
      sellingPlansToDelete: [...existing].filter((id) => !kept.has(id)).map((id) => toGid('SellingPlan', id)),
    })
  } catch (error) {
    throw platformError(error, '販売プランの保存')
  }
  const summary = await mirrorGroup(deps, shop, group, forms)
  await republish(deps, shop, hadRules || hasMulti(forms))
  return summary
}

async function removeGroup(deps: SellingPlanServiceDeps, shop: ShopRow, groupId: string): Promise<void> {
  await requireGroup(deps.db, shop, groupId)
  const hadRules = await groupHasCycleDiscounts(deps.db, shop.id, groupId)
  const gid = toGid('SellingPlanGroup', groupId)
  await forMerchant('販売プランの削除', () => deleteSellingPlanGroup(deps.clients.clientFor(shop), gid))
  await withTransaction(deps.db, (tx) => removeSellingPlanGroup(tx, shop.id, groupId))
  await republish(deps, shop, hadRules)
}

/**
 * PUT /selling-plan-groups/:id/sync: the group re-read from the platform into the mirror. A
 * group the platform no longer has leaves the mirror and answers 404. Asked with the shop's
 * own token, another shop's group is never found, so nothing is written for it.
 */
async function syncGroup(deps: SellingPlanServiceDeps, shop: ShopRow, groupId: string) {
  const gid = toGid('SellingPlanGroup', groupId)
  const group = await forMerchant('販売プランの同期', () =>
    fetchSellingPlanGroup(deps.clients.clientFor(shop), gid),
  )
  if (!group) {
    await withTransaction(deps.db, (tx) => removeSellingPlanGroup(tx, shop.id, groupId))
    throw notFound(GROUP_NOT_FOUND)
  }
  const summary = await mirrorGroup(deps, shop, group)
  await republish(deps, shop, await groupHasCycleDiscounts(deps.db, shop.id, groupId))
  return summary
}

/** The group flows bound to their dependencies (routes and the products service use them). */
export function createSellingPlanService(deps: SellingPlanServiceDeps) {
  return {
    async list(shop: ShopRow, query: string, page: number): Promise<SellingPlanGroupList> {
      const { groups, total } = await listGroups(deps.db, shop.id, query, page)
      return { groups, total, page, pageSize: SELLING_PLAN_GROUP_PAGE_SIZE }
    },
    plans: (shop: ShopRow, groupId: string) => plansOf(deps, shop, groupId),
    detail: (shop: ShopRow, groupId: string) => detailOf(deps, shop, groupId),
    create: (shop: ShopRow, body: SellingPlanGroupInput) => createGroup(deps, shop, body),
    update: (shop: ShopRow, groupId: string, body: SellingPlanGroupInput) =>
      updateGroup(deps, shop, groupId, body),
    remove: (shop: ShopRow, groupId: string) => removeGroup(deps, shop, groupId),
    sync: (shop: ShopRow, groupId: string) => syncGroup(deps, shop, groupId),
    mirror: (shop: ShopRow, group: PlatformSellingPlanGroup) => mirrorGroup(deps, shop, group),
    summary: (shop: ShopRow, groupId: string) => summaryOf(deps, shop, groupId),
  }
}

export type SellingPlanService = ReturnType<typeof createSellingPlanService>

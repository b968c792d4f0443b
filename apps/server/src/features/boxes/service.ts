import type { Box, BoxDetail, BoxList, CreateBoxRequest, UpdateBoxRequest } from '@teiki/contract'
import { type BoxSettings, boxProblems, boxSaveProblem, newBoxSettings } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { PlatformUserError } from '../../platform/errors.ts'
import { idFromGid, toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchSellingPlanGroupProducts } from '../../platform/operations/selling-plan-group-products.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { BoxRulesFunctionMissing, publishBoxRules } from './box-rules.ts'
import {
  type BoxPatch,
  type BoxRow,
  deleteBox,
  findBox,
  groupProductsCount,
  insertBox,
  listBoxes,
  updateBox,
} from './repo.ts'
import { publishBoxes } from './storefront.ts'

export const BOX_NOT_FOUND = 'ボックスが見つかりません'
const NOT_PUBLISHED =
  'ボックスは保存しましたが、ストアへの反映に失敗しました。もう一度保存するとストアに反映されます。'
const RULES_NOT_PUBLISHED =
  'ボックスは保存してストアに反映しましたが、カートとチェックアウトでの選択数の確認に反映できませんでした。もう一度保存すると反映されます。'
const GROUP_GONE = '選んだ販売プランは削除されています。販売プランを選び直してください'

const settingsOf = (row: BoxRow): BoxSettings => ({
  name: row.name,
  minSelection: row.min_selection,
  maxSelection: row.max_selection,
  sellingPlanGroupId: row.selling_plan_group_id,
})

/** A stored box with what keeps it from being complete (spec §5), judged now. */
function boxOf(row: BoxRow): Box {
  const settings = settingsOf(row)
  const groupKnown = row.group_name !== null
  const problems = boxProblems(settings, groupKnown ? row.group_products_count : null)
  if (settings.sellingPlanGroupId !== null && !groupKnown) problems.sellingPlanGroupId = GROUP_GONE
  return {
    id: row.id,
    ...settings,
    sellingPlanGroup: groupKnown
      ? {
          id: row.selling_plan_group_id!,
          name: row.group_name!,
          productsCount: row.group_products_count ?? 0,
        }
      : null,
    problems,
    complete: Object.keys(problems).length === 0,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

/** The fields a request gave (absent ones are not saved; null ones are, and are refused). */
const givenFields = (body: CreateBoxRequest | UpdateBoxRequest) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<BoxSettings>

export function createBoxService(deps: { db: Db; clients: ShopClients }) {
  const { db } = deps

  /**
   * The storefront's copy of the boxes (storefront.ts), then their rules at the cart and checkout
   * (box-rules.ts), after every change: a failure of either answers 422 or 502 saying the box is
   * saved and what was not done (the next save does it again).
   */
  async function publish(shop: ShopRow): Promise<void> {
    const client = deps.clients.clientFor(shop)
    // Refused (the platform's userErrors, or the app's function not deployed): 422; else 502.
    const failed = (error: unknown, message: string) => {
      const refused = error instanceof PlatformUserError || error instanceof BoxRulesFunctionMissing
      return new AppError(refused ? 'PLATFORM_USER_ERROR' : 'PLATFORM_UNAVAILABLE', message, { cause: error })
    }
    let boxes: Awaited<ReturnType<typeof publishBoxes>>
    try {
      boxes = await publishBoxes(db, client, shop.id)
    } catch (error) {
      throw failed(error, NOT_PUBLISHED)
    }
    try {
      await publishBoxRules(client, boxes)
    } catch (error) {
      throw failed(error, RULES_NOT_PUBLISHED)
    }
  }

  /**
   * Refuses saving `patch` over `current` (400 with the field's Japanese message; 404 for a group
   * the shop does not have), judged with the product count of the group the box would have.
   */
  async function refuseSave(shop: ShopRow, current: BoxSettings, patch: Partial<BoxSettings>) {
    const groupId = patch.sellingPlanGroupId ?? current.sellingPlanGroupId
    const count = groupId === null ? null : await groupProductsCount(db, shop.id, groupId)
    if (patch.sellingPlanGroupId != null && count === null) throw notFound('販売プランが見つかりません')
    const problem = boxSaveProblem(current, patch, count)
    if (problem) throw new AppError('INVALID_INPUT', problem.message)
  }

  async function stored(shop: ShopRow, id: string): Promise<BoxRow> {
    const row = await findBox(db, shop.id, id)
    if (!row) throw notFound(BOX_NOT_FOUND)
    return row
  }

  return {
    async list(shop: ShopRow, page: number): Promise<BoxList> {
      const { rows, total } = await listBoxes(db, shop.id, page)
      return { boxes: rows.map(boxOf), total, page }
    },

    /**
     * A new box: the default settings (「新しいボックス」, min 1) with the fields given over
     * them, each judged as a save of that field over the defaults (400 creates nothing).
     */
    async create(shop: ShopRow, body: CreateBoxRequest): Promise<Box> {
      const defaults = newBoxSettings()
      const patch = givenFields(body)
      await refuseSave(shop, defaults, patch)
      const id = await insertBox(db, shop.id, { ...defaults, ...patch })
      await publish(shop)
      return boxOf(await stored(shop, id))
    },

    /** The box and its group's first 30 products, read from the platform (none without a group). */
    async detail(shop: ShopRow, id: string): Promise<BoxDetail> {
      const row = await stored(shop, id)
      const box = boxOf(row)
      if (!box.sellingPlanGroup) return { box, products: [] }
      let products: Awaited<ReturnType<typeof fetchSellingPlanGroupProducts>>
      try {
        products = await fetchSellingPlanGroupProducts(
          deps.clients.clientFor(shop),
          toGid('SellingPlanGroup', box.sellingPlanGroup.id),
        )
      } catch (error) {
        throw platformError(error, 'ボックスの商品の読み込み')
      }
      return {
        box,
        products: (products ?? []).map((p) => ({
          id: idFromGid(p.id),
          title: p.title,
          imageUrl: p.featuredImage?.url ?? null,
        })),
      }
    },

    /**
     * Saves the fields given (the editor sends one at a time): each must be filled and keep
     * min ≤ max ≤ the group's product count with what is stored; a refused field (400) saves
     * nothing, and the fields saved before it stay saved.
     */
    async update(shop: ShopRow, id: string, body: UpdateBoxRequest): Promise<Box> {
      const row = await stored(shop, id)
      const patch = givenFields(body)
      await refuseSave(shop, settingsOf(row), patch)
      await updateBox(db, shop.id, id, patch as BoxPatch)
      await publish(shop)
      return boxOf(await stored(shop, id))
    },

    async remove(shop: ShopRow, id: string): Promise<void> {
      if (!(await deleteBox(db, shop.id, id))) throw notFound(BOX_NOT_FOUND)
      await publish(shop)
    },
  }
}

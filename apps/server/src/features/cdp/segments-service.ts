import type {
  CdpCustomerRow,
  CustomerList,
  GroupList,
  Segment,
  SegmentData,
  SegmentList,
  SegmentSetting,
} from '@teiki/contract'
import {
  describeConditions,
  normalizeConditions,
  type SegmentConditions,
  segmentProblems,
} from '@teiki/domain'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { latestSegmentExport, toApiSegmentExport } from './export-jobs-repo.ts'
import { segmentWhere } from './segment-sql.ts'
import {
  deleteSegment,
  findSegment,
  groupExists,
  insertGroup,
  insertSegment,
  type LifetimeAmounts,
  listGroups,
  listSegments,
  type SegmentCustomerRow,
  type SegmentRow,
  segmentCount,
  segmentCustomers,
  sellingPlanGroupNames,
  trafficSources,
  updateSegment,
} from './segments-repo.ts'
import { latestTagJob, tagJobFailures, toApiTagJob } from './tag-jobs-repo.ts'

export const SEGMENT_NOT_FOUND = 'セグメントが見つかりません'
const GROUP_NOT_FOUND = '指定したグループが見つかりません'
export const NAMELESS = '（名前なし）'

export type SegmentInput = {
  name: string
  groupId?: string | null | undefined
  conditions: SegmentConditions
}

/** The where-clause builder of a segment for this shop (its currency and zone). */
export const whereOf = (shop: ShopRow, conditions: SegmentConditions) => (firstParam: number) =>
  segmentWhere(conditions, {
    shopParam: 1,
    currency: shop.currency_code,
    timeZone: shop.iana_timezone,
    firstParam,
  })

/** Lifetime totals of a row as the API lists them: the shop's currency first. */
export function lifetimeOf(
  amounts: LifetimeAmounts | null,
  shopCurrency: string,
): CdpCustomerRow['lifetime'] {
  const entries = Object.entries(amounts ?? {}).map(([currencyCode, t]) => ({
    currencyCode,
    amount: Number(t.amount),
    orderCount: Number(t.orders),
  }))
  return entries.sort((a, b) =>
    a.currencyCode === shopCurrency ? -1 : b.currencyCode === shopCurrency ? 1 : 0,
  )
}

function customerRow(row: SegmentCustomerRow, currency: string): CdpCustomerRow {
  return {
    id: row.id,
    displayName: row.display_name || NAMELESS,
    email: row.email,
    tags: row.tags,
    orderCount: row.order_count,
    lifetime: lifetimeOf(row.amounts, currency),
    firstOrderAt: row.first_order_at ? row.first_order_at.toISOString() : null,
  }
}

export function createSegmentService(deps: { db: Db }) {
  const { db } = deps

  async function toApi(shop: ShopRow, row: SegmentRow): Promise<Segment> {
    const ids = row.conditions.sellingPlanGroupIds ?? []
    const names = await sellingPlanGroupNames(db, shop.id, ids)
    const gone = ids.filter((id) => !(id in names))
    return {
      id: row.id,
      name: row.name,
      groupId: row.group_id,
      groupName: row.group_name,
      conditions: row.conditions,
      description: describeConditions(row.conditions, shop.currency_code, names),
      error:
        gone.length > 0
          ? `条件の販売プラン（${gone.map((id) => `#${id}`).join('・')}）は削除されています。条件を見直してください`
          : null,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    }
  }

  async function stored(shop: ShopRow, id: string): Promise<SegmentRow> {
    const row = await findSegment(db, shop.id, id)
    if (!row) throw notFound(SEGMENT_NOT_FOUND)
    return row
  }

  /** The conditions as stored: normalised, refused (400) when they contradict themselves. */
  async function writable(shop: ShopRow, input: SegmentInput) {
    const conditions = normalizeConditions(input.conditions)
    const problems = Object.values(segmentProblems(conditions))
    if (problems.length > 0) throw new AppError('INVALID_INPUT', problems[0]!)
    const groupId = input.groupId ?? null
    if (groupId !== null && !(await groupExists(db, shop.id, groupId)))
      throw new AppError('INVALID_INPUT', GROUP_NOT_FOUND)
    return { name: input.name, groupId, conditions }
  }

  return {
    async list(shop: ShopRow): Promise<SegmentList> {
      const rows = await listSegments(db, shop.id)
      const segments = await Promise.all(rows.map((row) => toApi(shop, row)))
      const groups = (await listGroups(db, shop.id)).map((g) => ({
        id: g.id,
        name: g.name,
        segmentCount: g.segment_count,
      }))
      return { segments, groups }
    },

    async data(shop: ShopRow, id: string): Promise<SegmentData> {
      const row = await stored(shop, id)
      const total = await segmentCount(db, shop.id, whereOf(shop, row.conditions))
      const [job, exported] = await Promise.all([
        latestTagJob(db, shop.id, id),
        latestSegmentExport(db, shop.id, id),
      ])
      const failures = job && job.failed > 0 ? await tagJobFailures(db, shop.id, job.id) : []
      return {
        segment: await toApi(shop, row),
        total,
        tagJob: job ? toApiTagJob(job, failures) : null,
        exportJob: exported ? toApiSegmentExport(exported) : null,
      }
    },

    async create(shop: ShopRow, input: SegmentInput): Promise<Segment> {
      const write = await writable(shop, input)
      const id = await insertSegment(db, shop.id, write)
      return toApi(shop, await stored(shop, id))
    },

    async update(shop: ShopRow, id: string, input: SegmentInput): Promise<Segment> {
      const write = await writable(shop, input)
      if (!(await updateSegment(db, shop.id, id, write))) throw notFound(SEGMENT_NOT_FOUND)
      return toApi(shop, await stored(shop, id))
    },

    async remove(shop: ShopRow, id: string): Promise<void> {
      if (!(await deleteSegment(db, shop.id, id))) throw notFound(SEGMENT_NOT_FOUND)
    },

    async groups(shop: ShopRow, name: string | undefined): Promise<GroupList> {
      return withTransaction(db, async (tx) => {
        if (name) await insertGroup(tx, shop.id, name)
        const groups = await listGroups(tx, shop.id)
        return { groups: groups.map((g) => ({ id: g.id, name: g.name, segmentCount: g.segment_count })) }
      })
    },

    async setting(shop: ShopRow, source?: string, medium?: string): Promise<SegmentSetting> {
      return { sources: await trafficSources(db, shop.id, source || undefined, medium || undefined) }
    },

    async customers(shop: ShopRow, id: string, offset: number, count: number): Promise<CustomerList> {
      const row = await stored(shop, id)
      const rows = await segmentCustomers(db, shop.id, whereOf(shop, row.conditions), offset, count + 1)
      const page = rows.slice(0, count).map((r) => customerRow(r, shop.currency_code))
      return {
        customers: page,
        hasNext: rows.length > count,
        range: page.length > 0 ? { from: offset + 1, to: offset + page.length } : { from: 0, to: 0 },
      }
    },

    stored,
  }
}

export type SegmentService = ReturnType<typeof createSegmentService>

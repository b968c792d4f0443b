import type { Segment, SegmentConditionsInput, SubscriptionStatus } from '@teiki/contract'
import type { SegmentDraft } from './customers-api.ts'

/** The editor's fields as typed (text), turned into conditions on save. */
export type SegmentForm = {
  name: string
  groupId: string
  /** `source` or `source / medium` chosen from what the setting lists; '' none. */
  traffic: string[]
  statuses: SubscriptionStatus[]
  orderMin: string
  orderMax: string
  ltvMin: string
  ltvMax: string
  firstFrom: string
  firstTo: string
  sellingPlanGroupIds: string[]
  tagsAny: string
  tagsNone: string
}

export const EMPTY_FORM: SegmentForm = {
  name: '',
  groupId: '',
  traffic: [],
  statuses: [],
  orderMin: '',
  orderMax: '',
  ltvMin: '',
  ltvMax: '',
  firstFrom: '',
  firstTo: '',
  sellingPlanGroupIds: [],
  tagsAny: '',
  tagsNone: '',
}

export const trafficKey = (t: { source: string; medium?: string | undefined }) =>
  t.medium ? `${t.source} / ${t.medium}` : t.source

const num = (text: string) =>
  text.trim() === '' ? undefined : Number(text.normalize('NFKC').replace(/[,¥]/g, ''))
const tags = (text: string) =>
  text
    .split(/[、,\s]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
const range = <T>(r: Record<string, T | undefined>) =>
  Object.values(r).some((v) => v !== undefined)
    ? (Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Record<string, T>)
    : undefined

/** The form as the create/update request's `data` (the server validates and answers in Japanese). */
export function toDraft(form: SegmentForm): SegmentDraft {
  const conditions: SegmentConditionsInput = {}
  if (form.traffic.length)
    conditions.traffic = form.traffic.map((key) => {
      const [source, medium] = key.split(' / ')
      return medium ? { source: source!, medium } : { source: source! }
    })
  if (form.statuses.length) conditions.statuses = form.statuses
  const orderCount = range({ min: num(form.orderMin), max: num(form.orderMax) })
  if (orderCount) conditions.orderCount = orderCount
  const ltv = range({ min: num(form.ltvMin), max: num(form.ltvMax) })
  if (ltv) conditions.lifetimeValue = ltv
  const first = range({ from: form.firstFrom || undefined, to: form.firstTo || undefined })
  if (first) conditions.firstOrderDate = first
  if (form.sellingPlanGroupIds.length) conditions.sellingPlanGroupIds = form.sellingPlanGroupIds
  const any = tags(form.tagsAny)
  const none = tags(form.tagsNone)
  if (any.length || none.length)
    conditions.tags = { ...(any.length ? { any } : {}), ...(none.length ? { none } : {}) }
  return { name: form.name, groupId: form.groupId || null, conditions }
}

export function toForm(segment: Segment): SegmentForm {
  const c = segment.conditions
  const text = (v: number | undefined) => (v === undefined ? '' : String(v))
  return {
    name: segment.name,
    groupId: segment.groupId ?? '',
    traffic: (c.traffic ?? []).map(trafficKey),
    statuses: c.statuses ?? [],
    orderMin: text(c.orderCount?.min),
    orderMax: text(c.orderCount?.max),
    ltvMin: text(c.lifetimeValue?.min),
    ltvMax: text(c.lifetimeValue?.max),
    firstFrom: c.firstOrderDate?.from ?? '',
    firstTo: c.firstOrderDate?.to ?? '',
    sellingPlanGroupIds: c.sellingPlanGroupIds ?? [],
    tagsAny: (c.tags?.any ?? []).join('、'),
    tagsNone: (c.tags?.none ?? []).join('、'),
  }
}

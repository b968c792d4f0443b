import type {
  CustomerData,
  CustomerList,
  CustomerListExport,
  CustomerLog,
  CustomerTags,
  ExportEncoding,
  GroupList,
  LtvList,
  Segment,
  SegmentConditionsInput,
  SegmentData,
  SegmentList,
  SegmentSetting,
  SellingPlanGroupList,
  TagJob,
} from '@teiki/contract'
import { apiDownload, apiGet, apiPost } from '../../app/api.ts'

export type SegmentDraft = { name: string; groupId: string | null; conditions: SegmentConditionsInput }

/** The customer data platform endpoints the screens use (spec §7 `cdp-*`, `/ltv/*`). */
export const customersApi = {
  segments: () => apiGet<SegmentList>('/cdp-segment-list'),
  segment: (segmentId: string) => apiGet<SegmentData>('/cdp-segment-data', { segmentId }),
  setting: () => apiGet<SegmentSetting>('/cdp-segment-setting'),
  create: (data: SegmentDraft) => apiPost<Segment>('/cdp-segment-create', { data }),
  update: (id: string, data: SegmentDraft) =>
    apiPost<Segment>('/cdp-segment-update', { data: { id, ...data } }),
  remove: (segmentId: string) => apiGet<{ deleted: true }>('/cdp-segment-delete', { segmentId }),
  groups: (name?: string) => apiPost<GroupList>('/cdp-group-list/', name ? { name } : {}),
  customers: (segmentId: string, offset: number) =>
    apiGet<CustomerList>('/cdp-customer-list', { segmentId, offset, count: 10 }),
  exportByMail: (segmentId: string, email: string, encoding: ExportEncoding) =>
    apiPost<CustomerListExport>('/cdp-customer-list-export', { segmentId, email, encoding }),
  tagSegment: (segmentId: string, tag: string) =>
    apiPost<{ tagJob: TagJob }>('/cdp-customer-tag-add/', { segmentId, tags: [tag] }),
  customer: (customerId: string) => apiGet<CustomerData>('/cdp-customer-data', { customerId }),
  log: (customerId: string) => apiGet<CustomerLog>('/cdp-log-data', { customerId }),
  addTags: (customerId: string, tags: string[]) =>
    apiPost<CustomerTags>('/cdp-customer-tag-add/', { customerId, tags }),
  removeTags: (customerId: string, tags: string[]) =>
    apiPost<CustomerTags>('/cdp-customer-tag-delete/', { customerId, tags }),
  ltv: (startDate: string, endDate: string, offset: number) =>
    apiGet<LtvList>('/ltv/cdp-customer-list', { startDate, endDate, offset, count: 50 }),
  ltvCsv: (startDate: string, endDate: string, encoding: ExportEncoding) =>
    apiDownload('/ltv/cdp-customer-list-export', 'cdpLtv.csv', { params: { startDate, endDate, encoding } }),
  sellingPlanGroups: () => apiGet<SellingPlanGroupList>('/subscriptions/sellingPlanGroups', { page: 1 }),
}

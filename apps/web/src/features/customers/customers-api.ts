import type { ExportEncoding, SegmentConditionsInput } from '@teiki/contract'
import { api, download } from '../../app/api.ts'

export type SegmentDraft = { name: string; groupId: string | null; conditions: SegmentConditionsInput }

/** The customer data platform's writes and files (spec §7 `cdp-*`, `/ltv/*`); screens read with `useApi`. */
export const customersApi = {
  create: (data: SegmentDraft) => api('POST /cdp-segment-create', { body: { data } }),
  update: (id: string, data: SegmentDraft) =>
    api('POST /cdp-segment-update', { body: { data: { id, ...data } } }),
  remove: (segmentId: string) => api('GET /cdp-segment-delete', { query: { segmentId } }),
  groups: (name?: string) => api('POST /cdp-group-list/', { body: name ? { name } : {} }),
  exportByMail: (segmentId: string, email: string, encoding: ExportEncoding) =>
    api('POST /cdp-customer-list-export', { body: { segmentId, email, encoding } }),
  tagSegment: (segmentId: string, tag: string) =>
    api('POST /cdp-customer-tag-add/', { body: { segmentId, tags: [tag] } }),
  addTags: (customerId: string, tags: string[]) =>
    api('POST /cdp-customer-tag-add/', { body: { customerId, tags } }),
  removeTags: (customerId: string, tags: string[]) =>
    api('POST /cdp-customer-tag-delete/', { body: { customerId, tags } }),
  ltvCsv: (startDate: string, endDate: string, encoding: ExportEncoding) =>
    download('GET /ltv/cdp-customer-list-export', 'cdpLtv.csv', { query: { startDate, endDate, encoding } }),
}

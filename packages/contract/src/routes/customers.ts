import {
  ZCustomerData,
  ZCustomerIdQuery,
  ZCustomerList,
  ZCustomerListExport,
  ZCustomerListExportRequest,
  ZCustomerListQuery,
  ZCustomerLog,
  ZCustomerTags,
  ZGroupList,
  ZGroupListRequest,
  ZLtvExportQuery,
  ZLtvList,
  ZLtvQuery,
  ZSegment,
  ZSegmentCreateRequest,
  ZSegmentData,
  ZSegmentDeleted,
  ZSegmentIdQuery,
  ZSegmentList,
  ZSegmentSetting,
  ZSegmentSettingQuery,
  ZSegmentUpdateRequest,
  ZTagAddRequest,
  ZTagDeleteRequest,
  ZTagJobAccepted,
} from '../cdp.ts'
import { fileAnswer, type RouteTable } from './route.ts'

/** The customer data platform: segments, customers, their tags and logs, LTV. */
export const customerRoutes = {
  'GET /cdp-segment-list': { answer: ZSegmentList },
  'GET /cdp-segment-data': { query: ZSegmentIdQuery, answer: ZSegmentData },
  'GET /cdp-segment-setting': { query: ZSegmentSettingQuery, answer: ZSegmentSetting },
  'POST /cdp-segment-create': { body: ZSegmentCreateRequest, answer: ZSegment, status: 201 },
  'POST /cdp-segment-update': { body: ZSegmentUpdateRequest, answer: ZSegment },
  'GET /cdp-segment-delete': { query: ZSegmentIdQuery, answer: ZSegmentDeleted },
  'POST /cdp-group-list/': { body: ZGroupListRequest, answer: ZGroupList },

  'GET /cdp-customer-list': { query: ZCustomerListQuery, answer: ZCustomerList },
  'POST /cdp-customer-list-export': {
    body: ZCustomerListExportRequest,
    answer: ZCustomerListExport,
    status: 202,
  },
  'GET /cdp-customer-data': { query: ZCustomerIdQuery, answer: ZCustomerData },
  'GET /cdp-log-data': { query: ZCustomerIdQuery, answer: ZCustomerLog },
  'POST /cdp-customer-tag-add/': {
    body: ZTagAddRequest,
    answer: ZCustomerTags,
    // With a segment instead of one customer the tags are added by a job: 202 and the job.
    alternative: { status: 202, answer: ZTagJobAccepted },
  },
  'POST /cdp-customer-tag-delete/': { body: ZTagDeleteRequest, answer: ZCustomerTags },

  'GET /ltv/cdp-customer-list': { query: ZLtvQuery, answer: ZLtvList },
  'GET /ltv/cdp-customer-list-export': {
    query: ZLtvExportQuery,
    answer: fileAnswer('the CSV file cdpLtv.csv'),
    file: true,
  },
} satisfies RouteTable

import {
  ZCancellationReason,
  ZCancellationReasonBody,
  ZCancellationReasonList,
  ZCancellationReasonParams,
  ZCancellationReasonsGroupedBy,
  ZCancellationReasonsGroupedByQuery,
  ZContractCancellationReason,
  ZRetentionOfferBody,
  ZRetentionOffers,
} from '../cancellation-reasons.ts'
import { ZExportIdParam, ZExportJob, ZExportJobList, ZExportRequest } from '../exports.ts'
import { ZChurnRequest, ZContractActionRequest, ZContractActionResponse } from '../subscription-actions.ts'
import {
  ZContractDetailParams,
  ZPaymentMethodsResponse,
  ZSubscriptionDetail,
} from '../subscription-detail.ts'
import {
  ZAddLineRequest,
  ZApplyDiscountCodeRequest,
  ZContractEditResponse,
  ZContractIdParam,
  ZContractLineParams,
  ZCreateOrderNowRequest,
  ZCreateOrderNowResponse,
  ZDeliveryAddressRequest,
  ZDeliveryTimeRequest,
  ZDiscountCodeParams,
  ZDiscountCodesResponse,
  ZIntervalRequest,
  ZLineQuantityRequest,
  ZModifyPaymentMethodRequest,
  ZNextBillingDateRequest,
  ZNextDeliveryDateRequest,
  ZNextDeliveryDateResponse,
  ZNoteRequest,
  ZOrderCountRequest,
  ZOrderCountResponse,
  ZPaymentUpdateEmailResponse,
  ZPriceManuallyChangedRequest,
  ZRevisionQuery,
  ZSwapVariantRequest,
} from '../subscription-edits.ts'
import {
  ZLatestSubscription,
  ZLatestSubscriptionQuery,
  ZSearchSubscriptionsQuery,
  ZSearchSubscriptionsResponse,
  ZSearchVariantQuery,
} from '../subscriptions.ts'
import { fileAnswer, type RouteTable, ZNoContent } from './route.ts'

const edited = ZContractEditResponse
const contract = ZContractIdParam
const line = ZContractLineParams

/** The contracts: list and search, detail, the actions, the edits, cancellation reasons, CSV exports. */
export const subscriptionRoutes = {
  'GET /subscriptions/search': { query: ZSearchSubscriptionsQuery, answer: ZSearchSubscriptionsResponse },
  'GET /subscriptions/search-variant-id': {
    query: ZSearchVariantQuery,
    answer: ZSearchSubscriptionsResponse,
  },
  'GET /subscriptions/latest': { query: ZLatestSubscriptionQuery, answer: ZLatestSubscription },
  'GET /subscriptions/:contractId': { params: ZContractDetailParams, answer: ZSubscriptionDetail },

  'POST /pause': { body: ZContractActionRequest, answer: ZContractActionResponse },
  'POST /resume': { body: ZContractActionRequest, answer: ZContractActionResponse },
  'POST /churn': { body: ZChurnRequest, answer: ZContractActionResponse },

  'PUT /next-billing-date': { body: ZNextBillingDateRequest, answer: edited },
  'GET /subscriptions/:id/next-delivery-date': { params: contract, answer: ZNextDeliveryDateResponse },
  'PUT /subscriptions/:id/next-delivery-date': {
    params: contract,
    body: ZNextDeliveryDateRequest,
    answer: edited,
  },
  'PUT /subscription-contracts/:id/specify-delivery-time': {
    params: contract,
    body: ZDeliveryTimeRequest,
    answer: edited,
  },
  'PUT /interval-and-interval-count': { body: ZIntervalRequest, answer: edited },
  'POST /create-order-now': { body: ZCreateOrderNowRequest, answer: ZCreateOrderNowResponse },
  'POST /subscriptions/:id/lines': { params: contract, body: ZAddLineRequest, answer: edited },
  'DELETE /subscriptions/:contractId/lines/:lineId': { params: line, query: ZRevisionQuery, answer: edited },
  'PUT /subscriptions/:contractId/:lineId/quantity': {
    params: line,
    body: ZLineQuantityRequest,
    answer: edited,
  },
  'POST /subscription-contracts/:id/price-manually-changed': {
    params: contract,
    body: ZPriceManuallyChangedRequest,
    answer: edited,
  },
  'PUT /subscriptions/:contractId/:lineId/product-variant': {
    params: line,
    body: ZSwapVariantRequest,
    answer: edited,
  },
  'PUT /subscription-contracts/:id/note': { params: contract, body: ZNoteRequest, answer: edited },
  'GET /subscription-contracts/:id/order-count': { params: contract, answer: ZOrderCountResponse },
  'PUT /subscription-contracts/:id/order-count': {
    params: contract,
    body: ZOrderCountRequest,
    answer: ZOrderCountResponse,
  },
  'PUT /subscriptions/:id/delivery-address': {
    params: contract,
    body: ZDeliveryAddressRequest,
    answer: edited,
  },
  'GET /subscription-contracts/:id/payment-methods': { params: contract, answer: ZPaymentMethodsResponse },
  'PUT /modify-payment-method': { body: ZModifyPaymentMethodRequest, answer: edited },
  'POST /subscription-contracts/:id/payment-method-update-email': {
    params: contract,
    answer: ZPaymentUpdateEmailResponse,
  },
  'GET /subscriptions/:id/discount-code/': { params: contract, answer: ZDiscountCodesResponse },
  'PUT /subscriptions/:id/discount-code/apply': {
    params: contract,
    body: ZApplyDiscountCodeRequest,
    answer: edited,
  },
  'DELETE /subscriptions/:id/discount-code/:code': {
    params: ZDiscountCodeParams,
    query: ZRevisionQuery,
    answer: edited,
  },

  'GET /cancellation-reasons': { answer: ZCancellationReasonList },
  'POST /cancellation-reasons': { body: ZCancellationReasonBody, answer: ZCancellationReason, status: 201 },
  'PUT /cancellation-reasons/:id': {
    params: ZCancellationReasonParams,
    body: ZCancellationReasonBody,
    answer: ZCancellationReason,
  },
  'DELETE /cancellation-reasons/:id': { params: ZCancellationReasonParams, answer: ZNoContent, status: 204 },
  'GET /retention-offers': { query: ZCancellationReasonsGroupedByQuery, answer: ZRetentionOffers },
  'PUT /retention-offers/:id': {
    params: ZCancellationReasonParams,
    body: ZRetentionOfferBody,
    answer: ZRetentionOffers,
  },
  'GET /subscription-contracts/cancellation-reasons-grouped-by': {
    query: ZCancellationReasonsGroupedByQuery,
    answer: ZCancellationReasonsGroupedBy,
  },
  'GET /subscription-contracts/:id/cancellation-reason': {
    params: contract,
    answer: ZContractCancellationReason,
  },

  'POST /export-subscription-contracts': { body: ZExportRequest, answer: ZExportJob, status: 202 },
  'GET /export-subscription-contracts': { answer: ZExportJobList },
  'GET /export-subscription-contracts/:id': { params: ZExportIdParam, answer: ZExportJob },
  'GET /export-subscription-contracts/:id/download': {
    params: ZExportIdParam,
    answer: fileAnswer('the CSV file (text/csv; charset=utf-8 with BOM, or Shift_JIS)'),
    file: true,
  },
} satisfies RouteTable

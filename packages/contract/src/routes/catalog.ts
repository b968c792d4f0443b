import {
  ZBatchIdParam,
  ZBatchItems,
  ZBatchItemsQuery,
  ZBatchJob,
  ZBatchJobList,
  ZBatchNextBillingDatePreviewQuery,
  ZBatchNextBillingDateUpdateRequest,
  ZBatchPreview,
  ZBatchProductDeletePreviewQuery,
  ZBatchProductDeleteRequest,
  ZBatchProductUpdatePreviewQuery,
  ZBatchProductUpdateRequest,
  ZBulkQueryResponse,
} from '../batch.ts'
import {
  ZBox,
  ZBoxDetail,
  ZBoxList,
  ZBoxListQuery,
  ZBoxParams,
  ZCreateBoxRequest,
  ZUpdateBoxRequest,
} from '../boxes.ts'
import {
  ZProductList,
  ZProductListQuery,
  ZVariantParams,
  ZVariantSearchQuery,
  ZVariantSearchResponse,
  ZVariantSummary,
} from '../products.ts'
import {
  ZCustomCycleDiscounts,
  ZCustomCycleDiscountsBody,
  ZFreeShippingExist,
  ZFreeShippingExistQuery,
  ZFreeShippingUpdate,
  ZFreeShippingUpdateQuery,
  ZGroupProductsChange,
  ZGroupVariants,
  ZGroupVariantsQuery,
  ZParentVariant,
  ZParentVariantBody,
  ZParentVariantParams,
  ZSellingPlanGroupDetail,
  ZSellingPlanGroupInput,
  ZSellingPlanGroupList,
  ZSellingPlanGroupListQuery,
  ZSellingPlanGroupOfPlan,
  ZSellingPlanGroupParams,
  ZSellingPlanGroupSummary,
  ZSellingPlanList,
  ZSellingPlanParams,
} from '../selling-plans.ts'
import {
  ZAddThemeSectionBody,
  ZAddThemeSectionParams,
  ZAddThemeSectionResponse,
  ZAppBlockSupport,
  ZProductPageWidgetResponse,
  ZScriptTagList,
  ZScriptTagParams,
  ZTemplateParams,
  ZThemeList,
  ZThemeParams,
} from '../theme.ts'
import { type RouteTable, ZNoContent } from './route.ts'

const group = ZSellingPlanGroupParams
const plan = ZSellingPlanParams

/** What is sold and how: products, selling plans, boxes, the theme, batch updates of contracts' lines. */
export const catalogRoutes = {
  'GET /products': { query: ZProductListQuery, answer: ZProductList },
  'GET /products/variants/search': { query: ZVariantSearchQuery, answer: ZVariantSearchResponse },
  'GET /products/variants/:id': { params: ZVariantParams, answer: ZVariantSummary },

  'GET /subscriptions/sellingPlanGroups': {
    query: ZSellingPlanGroupListQuery,
    answer: ZSellingPlanGroupList,
  },
  'GET /subscriptions/sellingPlanGroups/:id/sellingPlans': { params: group, answer: ZSellingPlanList },
  'GET /selling-plan-groups/:id': { params: group, answer: ZSellingPlanGroupDetail },
  'POST /selling-plan-groups': {
    body: ZSellingPlanGroupInput,
    answer: ZSellingPlanGroupSummary,
    status: 201,
  },
  'PUT /selling-plan-groups/:id': {
    params: group,
    body: ZSellingPlanGroupInput,
    answer: ZSellingPlanGroupSummary,
  },
  'DELETE /selling-plan-groups/:id': { params: group, answer: ZNoContent, status: 204 },
  'POST /selling-plan-groups/:id/products': {
    params: group,
    body: ZGroupProductsChange,
    answer: ZSellingPlanGroupSummary,
  },
  'GET /selling-plan-groups/:id/variants': {
    params: group,
    query: ZGroupVariantsQuery,
    answer: ZGroupVariants,
  },
  'PUT /selling-plan-groups/:id/sync': { params: group, answer: ZSellingPlanGroupSummary },
  'GET /selling-plans/:id/custom-cycle-discounts': { params: plan, answer: ZCustomCycleDiscounts },
  'PUT /selling-plans/:id/custom-cycle-discounts': {
    params: plan,
    body: ZCustomCycleDiscountsBody,
    answer: ZCustomCycleDiscounts,
  },
  'DELETE /selling-plans/:id/custom-cycle-discounts-all': { params: plan, answer: ZNoContent, status: 204 },
  'GET /selling-plans/:id/selling-plan-group-id': { params: plan, answer: ZSellingPlanGroupOfPlan },
  'GET /selling-plan-groups/:id/variants/:variantId/parent': {
    params: ZParentVariantParams,
    answer: ZParentVariant,
  },
  'PUT /selling-plan-groups/:id/variants/:variantId/parent': {
    params: ZParentVariantParams,
    body: ZParentVariantBody,
    answer: ZParentVariant,
  },
  'GET /free-shipping-profile/exist': { query: ZFreeShippingExistQuery, answer: ZFreeShippingExist },
  'GET /free-shipping-profile/update': { query: ZFreeShippingUpdateQuery, answer: ZFreeShippingUpdate },

  'GET /boxes': { query: ZBoxListQuery, answer: ZBoxList },
  'POST /boxes': { body: ZCreateBoxRequest, answer: ZBox, status: 201 },
  'GET /boxes/:id': { params: ZBoxParams, answer: ZBoxDetail },
  'PUT /boxes/:id': { params: ZBoxParams, body: ZUpdateBoxRequest, answer: ZBox },
  'DELETE /boxes/:id': { params: ZBoxParams, answer: ZNoContent, status: 204 },

  'GET /themes': { answer: ZThemeList },
  'GET /themes/:id/templates/:t/app-block-support': { params: ZTemplateParams, answer: ZAppBlockSupport },
  'POST /themes/:id/product-page-widget': { params: ZThemeParams, answer: ZProductPageWidgetResponse },
  'PUT /add-theme-section/:themeId': {
    params: ZAddThemeSectionParams,
    body: ZAddThemeSectionBody,
    answer: ZAddThemeSectionResponse,
  },
  'GET /script-tags': { answer: ZScriptTagList },
  'DELETE /script-tags/:id': { params: ZScriptTagParams, answer: ZNoContent, status: 204 },

  'POST /batch-product-update': { body: ZBatchProductUpdateRequest, answer: ZBatchJob, status: 202 },
  'POST /batch-product-delete': { body: ZBatchProductDeleteRequest, answer: ZBatchJob, status: 202 },
  'POST /batch-next-billing-date-update': {
    body: ZBatchNextBillingDateUpdateRequest,
    answer: ZBatchJob,
    status: 202,
  },
  'GET /batch-product-update/preview': { query: ZBatchProductUpdatePreviewQuery, answer: ZBatchPreview },
  'GET /batch-product-delete/preview': { query: ZBatchProductDeletePreviewQuery, answer: ZBatchPreview },
  'GET /batch-next-billing-date-update/preview': {
    query: ZBatchNextBillingDatePreviewQuery,
    answer: ZBatchPreview,
  },
  'GET /batch-updates': { answer: ZBatchJobList },
  'GET /batch-updates/:id': { params: ZBatchIdParam, answer: ZBatchJob },
  'GET /batch-updates/:id/items': { params: ZBatchIdParam, query: ZBatchItemsQuery, answer: ZBatchItems },
  'POST /batch-updates/:id/cancel': { params: ZBatchIdParam, answer: ZBatchJob },
  'GET /bulk-query': { answer: ZBulkQueryResponse },
} satisfies RouteTable

import {
  ZAppHandleResponse,
  ZAppPlanOffers,
  ZAppUsageEligibility,
  ZPlanChangeBody,
  ZPlanChangeResponse,
  ZShopEligibility,
  ZShopifyPlanResponse,
} from '../app-plan.ts'
import {
  ZBillingRunsQuery,
  ZBillingRunsResponse,
  ZBillingSettings,
  ZUpcomingChargesQuery,
  ZUpcomingChargesResponse,
} from '../billing.ts'
import { ZDeliverySettings, ZDeliverySettingsResponse } from '../delivery.ts'
import {
  ZCustomShopMail,
  ZCustomShopMailBody,
  ZMailAddressResponse,
  ZMailTemplateBody,
  ZMailTemplateList,
  ZMailTemplateParams,
  ZMailTemplateResponse,
  ZTestMailBody,
  ZTestMailResponse,
} from '../mail-templates.ts'
import { ZMyPageSettings, ZMyPageSettingsResponse } from '../my-page.ts'
import {
  ZCurrencyList,
  ZCurrentCount,
  ZCurrentQuery,
  ZDailyCounts,
  ZPersistenceQuery,
  ZPersistenceRate,
  ZReportRangeQuery,
  ZSalesSeries,
  ZSubtotalQuery,
} from '../reports.ts'
import {
  ZDeliveryPrepDaysOperation,
  ZMyPageTargetVariantBody,
  ZMyPageTargetVariantDeleteQuery,
  ZMyPageTargetVariantList,
  ZSettingsBody,
  ZSettingsResponse,
} from '../settings.ts'
import { ZShippingCsvQuery, ZShippingForecast, ZShippingForecastQuery } from '../shipping.ts'
import {
  ZDomainResponse,
  ZEligibilityResponse,
  ZOrderHistoryResponse,
  ZPlanResponse,
  ZShopCurrencyResponse,
} from '../shop.ts'
import { ZPixelSettings, ZTrafficConditions, ZTrafficQuery, ZTrafficReport } from '../traffic.ts'
import type { RouteTable } from './route.ts'
import { fileAnswer } from './route.ts'

const range = { query: ZReportRangeQuery, answer: ZDailyCounts }
const sales = { query: ZSubtotalQuery, answer: ZSalesSeries }
const currencies = { query: ZReportRangeQuery, answer: ZCurrencyList }
const mailType = ZMailTemplateParams

/** The shop itself: its plan, scopes, settings, mail, billing, reports and traffic. */
export const shopRoutes = {
  'GET /plan': { answer: ZPlanResponse },
  'GET /plans': { answer: ZAppPlanOffers },
  'PUT /plan': { body: ZPlanChangeBody, answer: ZPlanChangeResponse },
  'GET /shopifyPlan': { answer: ZShopifyPlanResponse },
  'GET /app-usage-eligibility': { answer: ZAppUsageEligibility },
  'GET /shop-eligibility': { answer: ZShopEligibility },
  'GET /app-handle': { answer: ZAppHandleResponse },

  'GET /app-scope-eligibility': { answer: ZEligibilityResponse },
  'GET /order-history': { answer: ZOrderHistoryResponse },
  'GET /shop-currency-code': { answer: ZShopCurrencyResponse },
  'GET /domain': { answer: ZDomainResponse },

  'GET /settings': { answer: ZSettingsResponse },
  'PUT /settings': { body: ZSettingsBody, answer: ZSettingsResponse },
  'GET /delivery-settings': { answer: ZDeliverySettingsResponse },
  'GET /my-page-settings': { answer: ZMyPageSettingsResponse },
  'PUT /my-page-settings': { body: ZMyPageSettings, answer: ZMyPageSettingsResponse },
  'PUT /delivery-settings': { body: ZDeliverySettings, answer: ZDeliverySettingsResponse },
  'GET /shipping-forecast': { query: ZShippingForecastQuery, answer: ZShippingForecast },
  'GET /shipping-forecast/csv': {
    query: ZShippingCsvQuery,
    answer: fileAnswer('one row per coming order (text/csv; UTF-8 with BOM, or Shift_JIS)'),
    file: true,
  },
  'GET /current-delivery-prep-days-operation': { answer: ZDeliveryPrepDaysOperation },
  'GET /my-page-target-product-variants': { answer: ZMyPageTargetVariantList },
  'POST /my-page-target-product-variants': {
    body: ZMyPageTargetVariantBody,
    answer: ZMyPageTargetVariantList,
  },
  'DELETE /my-page-target-product-variants': {
    query: ZMyPageTargetVariantDeleteQuery,
    answer: ZMyPageTargetVariantList,
  },

  'GET /mail-templates': { answer: ZMailTemplateList },
  'GET /mail-template/:type': { params: mailType, answer: ZMailTemplateResponse },
  'PUT /mail-template/:type': { params: mailType, body: ZMailTemplateBody, answer: ZMailTemplateResponse },
  'DELETE /mail-template/:type': { params: mailType, answer: ZMailTemplateResponse },
  'POST /test-mail/:type': { params: mailType, body: ZTestMailBody, answer: ZTestMailResponse },
  'GET /mail-address': { answer: ZMailAddressResponse },
  'GET /custom-shop-mail': { answer: ZCustomShopMail },
  'PUT /custom-shop-mail': { body: ZCustomShopMailBody, answer: ZCustomShopMail },

  'GET /billing-settings': { answer: ZBillingSettings },
  'PUT /billing-settings': { body: ZBillingSettings, answer: ZBillingSettings },
  'GET /billing/upcoming': { query: ZUpcomingChargesQuery, answer: ZUpcomingChargesResponse },
  'GET /billing/runs': { query: ZBillingRunsQuery, answer: ZBillingRunsResponse },

  'GET /daily-report/new-contract': range,
  'GET /cumulative/new-contract': range,
  'GET /daily-report/cancel': range,
  'GET /cumulative/cancel': range,
  'GET /daily-report/pause': range,
  'GET /cumulative/pause': range,
  'GET /cumulative/failure': range,
  'GET /daily-report/active-contract': range,
  'GET /current/active-contract': { query: ZCurrentQuery, answer: ZCurrentCount },
  'GET /daily-report/subtotal': sales,
  'GET /daily-report/subtotal/currency': currencies,
  'GET /cumulative/subtotal': sales,
  'GET /cumulative/subtotal/currency': currencies,
  'GET /subscriptions/persistence-rate': { query: ZPersistenceQuery, answer: ZPersistenceRate },

  'GET /traffic-actuation': { query: ZTrafficQuery, answer: ZTrafficReport },
  'GET /traffic-actuation/condition': { answer: ZTrafficConditions },
  'GET /traffic/pixel-settings': { answer: ZPixelSettings },
  'POST /traffic/pixel-connection': { answer: ZPixelSettings },
} satisfies RouteTable

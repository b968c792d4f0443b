import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { AppFeatureKey } from '@teiki/domain'
import { lazy, type ReactNode, Suspense, useState } from 'react'
import { createBrowserRouter, Route, RouterProvider, Routes } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { FeatureGate } from '../features/plans/feature-gate.tsx'
import { SubscriptionListPage } from '../features/subscriptions/subscription-list-page.tsx'
import { AppFrame } from './app-frame.tsx'
import { AppLink } from './app-link.tsx'
import { PageGate } from './gate.tsx'
import { POLARIS_JA_OVERRIDES } from './polaris-ja.ts'
import { SubscriptionCheckProvider } from './subscription-check.tsx'
import { UiStateProvider } from './ui-state.tsx'
import { SWR_SETTINGS } from './use-api.ts'

// The list is the landing page and ships in the main chunk; other pages load on demand.
const PlansPage = lazy(() => import('../features/plans/plans-page.tsx'))
const CancellationReasonsPage = lazy(
  () => import('../features/cancellation-reasons/cancellation-reasons-page.tsx'),
)
const SubscriptionDetailPage = lazy(
  () => import('../features/subscriptions/detail/subscription-detail-page.tsx'),
)
const BillingSettingsPage = lazy(() => import('../features/billing/billing-settings-page.tsx'))
const UpcomingChargesPage = lazy(() => import('../features/billing/upcoming-charges-page.tsx'))
const ShippingForecastPage = lazy(() => import('../features/shipping/shipping-forecast-page.tsx'))
const ThemePage = lazy(() => import('../features/theme/theme-page.tsx'))
const PlanListPage = lazy(() => import('../features/selling-plans/plan-list-page.tsx'))
const GroupEditorPage = lazy(() => import('../features/selling-plans/group-editor-page.tsx'))
const BoxListPage = lazy(() => import('../features/boxes/box-list-page.tsx'))
const BoxEditorPage = lazy(() => import('../features/boxes/box-editor-page.tsx'))
const SegmentListPage = lazy(() => import('../features/customers/segment-list-page.tsx'))
const SegmentPage = lazy(() => import('../features/customers/segment-page.tsx'))
const CustomerPage = lazy(() => import('../features/customers/customer-page.tsx'))
const LtvPage = lazy(() => import('../features/customers/ltv-page.tsx'))
const BatchPage = lazy(() => import('../features/batch/batch-page.tsx'))
const MailTemplatesPage = lazy(() => import('../features/mail-templates/mail-templates-page.tsx'))
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx'))
const AnalyticsPage = lazy(() => import('../features/analytics/analytics-page.tsx'))
const PersistencePage = lazy(() => import('../features/analytics/persistence-page.tsx'))
const TrafficPage = lazy(() => import('../features/analytics/traffic-page.tsx'))
const NotFoundPage = lazy(() => import('./not-found-page.tsx'))

/** A screen of a tiered feature: the upgrade prompt under its title when the plan lacks it. */
const gated = (feature: AppFeatureKey, title: string, page: ReactNode) => (
  <FeatureGate feature={feature} title={title}>
    {page}
  </FeatureGate>
)

export function App() {
  // A data router (one catch-all route holding the app's <Routes>): only it lets a page with
  // unsaved changes hold back in-app navigation and Back (useBlocker, leave-guard.tsx).
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <AppRoutes /> }]))
  return (
    <SWRConfig value={SWR_SETTINGS}>
      <RouterProvider router={router} />
    </SWRConfig>
  )
}

function AppRoutes() {
  return (
    <AppProvider i18n={[POLARIS_JA_OVERRIDES, ja]} linkComponent={AppLink}>
      <SubscriptionCheckProvider>
        <AppFrame>
          <UiStateProvider>
            <PageGate>
              <Suspense fallback={null}>
                <Routes>
                  <Route path="/" element={<SubscriptionListPage />} />
                  <Route path="/subscriptions/:contractId" element={<SubscriptionDetailPage />} />
                  <Route path="/plans" element={<PlansPage />} />
                  <Route path="/cancellation-reasons" element={<CancellationReasonsPage />} />
                  <Route path="/billing/settings" element={<BillingSettingsPage />} />
                  <Route path="/billing/upcoming" element={<UpcomingChargesPage />} />
                  <Route path="/shipping" element={<ShippingForecastPage />} />
                  <Route path="/theme" element={<ThemePage />} />
                  <Route path="/selling-plans" element={<PlanListPage />} />
                  <Route path="/selling-plans/:groupId" element={<GroupEditorPage />} />
                  <Route path="/boxes" element={<BoxListPage />} />
                  <Route path="/boxes/:boxId" element={<BoxEditorPage />} />
                  <Route
                    path="/segments"
                    element={gated('customerData', 'セグメント', <SegmentListPage />)}
                  />
                  <Route
                    path="/segments/:segmentId"
                    element={gated('customerData', 'セグメント', <SegmentPage />)}
                  />
                  <Route
                    path="/customers/:customerId"
                    element={gated('customerData', '顧客詳細', <CustomerPage />)}
                  />
                  <Route path="/ltv" element={gated('customerData', 'LTV', <LtvPage />)} />
                  <Route path="/batch" element={<BatchPage />} />
                  <Route path="/mail-templates" element={<MailTemplatesPage />} />
                  <Route path="/settings" element={<SettingsPage />} />
                  <Route path="/analytics" element={gated('analytics', '分析', <AnalyticsPage />)} />
                  <Route
                    path="/persistence-rate"
                    element={gated('analytics', '継続率', <PersistencePage />)}
                  />
                  <Route path="/traffic" element={gated('analytics', '流入元', <TrafficPage />)} />
                  <Route path="*" element={<NotFoundPage />} />
                </Routes>
              </Suspense>
            </PageGate>
          </UiStateProvider>
        </AppFrame>
      </SubscriptionCheckProvider>
    </AppProvider>
  )
}

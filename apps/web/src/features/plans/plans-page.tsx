import { Badge, Banner, BlockStack, Box, InlineStack, Layout, Page, Text } from '@shopify/polaris'
import type { AppPlan, AppUsageEligibility, PlanResponse } from '@teiki/contract'
import { formatDateJa } from '@teiki/domain'
import type { ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { LoadErrorState, SkeletonCard } from '../../app/load-state.tsx'
import { SectionCard } from '../../app/section-card.tsx'
import { combine, useApi } from '../../app/use-api.ts'
import { currentPlanView } from './plan-model.ts'
import { PlanOffers } from './plan-offers.tsx'
import { planStatusLabel, planStatusTone, trialLabel } from './plan-status.ts'

type Loaded = { plan: PlanResponse; usage: AppUsageEligibility }

/** プラン: the app plan of the shop, and the plans to change to (approved on the platform). */
export default function PlansPage() {
  // The platform sends the merchant back here with the charge's id after its approval page.
  const returned = new URLSearchParams(useLocation().search).has('charge_id')
  // The plan first (it settles a change the merchant just approved), then what it allows.
  const plan = useApi('GET /plan')
  const state = combine(plan, useApi(plan.data ? 'GET /app-usage-eligibility' : null))

  return (
    <Page title="プラン">
      <Layout>
        <Layout.Section>
          {state.data === undefined ? (
            state.error && !state.isValidating ? (
              <LoadErrorState
                title="プランを読み込めませんでした"
                error={state.error}
                onRetry={state.retry}
              />
            ) : (
              <PlanSkeleton />
            )
          ) : (
            <BlockStack gap="400">
              {returned ? (
                <div data-testid="plan-returned">
                  <Banner
                    tone={state.data[0].isActive ? 'success' : 'warning'}
                    title="ストアでの承認手続きから戻りました"
                  >
                    <p>
                      {state.data[0].isActive && state.data[0].currentPlan
                        ? `現在のプランは「${currentPlanView(state.data[0])!.name}」です。`
                        : 'プランは有効になっていません。もう一度プランを選んでください。'}
                    </p>
                  </Banner>
                </div>
              ) : null}
              <PlanDetails data={{ plan: state.data[0], usage: state.data[1] }} />
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  )
}

function PlanDetails({ data: { plan, usage } }: { data: Loaded }) {
  return (
    <BlockStack gap="400">
      <UsageBanner usage={usage} frozen={plan.currentPlan?.status === 'FROZEN'} />
      <SectionCard title="現在のプラン">
        {plan.currentPlan ? (
          <CurrentPlan data={plan} plan={plan.currentPlan} />
        ) : (
          <Text as="p">ご契約中のプランはありません。</Text>
        )}
        <Row label="Shopifyプラン">{plan.shopifyPlan ?? '—'}</Row>
      </SectionCard>
      <PlanOffers current={plan} />
    </BlockStack>
  )
}

/**
 * Why the shop may not use the app (the gate sent the merchant here: a plan cancelled,
 * declined, expired or frozen, or none), or on what terms it may (a development or test shop,
 * a plan the catalogue does not have).
 */
function UsageBanner({ usage, frozen }: { usage: AppUsageEligibility; frozen: boolean }) {
  if (!usage.reason) return null
  const tone = usage.eligible ? 'info' : frozen ? 'critical' : 'warning'
  return (
    <div data-testid="plan-usage-reason">
      <Banner tone={tone} title={usage.title ?? undefined}>
        <p>{usage.reason}</p>
      </Banner>
    </div>
  )
}

function CurrentPlan({ data, plan }: { data: PlanResponse; plan: AppPlan }) {
  const view = currentPlanView(data)!
  return (
    <BlockStack gap="300">
      <InlineStack gap="200" blockAlign="center">
        <span data-testid="current-plan-name">
          <Text as="p" variant="headingLg">
            {view.name}
          </Text>
        </span>
        <Badge tone={planStatusTone[plan.status]}>{planStatusLabel[plan.status]}</Badge>
        {plan.test ? <Badge tone="info">テスト</Badge> : null}
        {view.listed ? null : <Badge tone="attention">プラン一覧にないプラン</Badge>}
      </InlineStack>
      <Row label="月額料金">{view.monthly ?? '—'}</Row>
      {view.note ? (
        <Text as="p" tone="subdued">
          {view.note}
        </Text>
      ) : null}
      <Row label="無料体験期間">{trialLabel(plan.trialDays)}</Row>
      <Row label="現在の請求期間の終了日">
        {plan.currentPeriodEnd ? formatDateJa(plan.currentPeriodEnd, 'Asia/Tokyo') : '—'}
      </Row>
    </BlockStack>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <InlineStack gap="400" wrap={false}>
      <Box minWidth="12rem">
        <Text as="span" tone="subdued">
          {label}
        </Text>
      </Box>
      <Text as="span">{children}</Text>
    </InlineStack>
  )
}

function PlanSkeleton() {
  return <SkeletonCard lines={4} />
}

import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Card,
  InlineStack,
  Layout,
  Page,
  SkeletonBodyText,
  SkeletonDisplayText,
  Text,
} from '@shopify/polaris'
import type { AppPlan, PlanResponse } from '@teiki/contract'
import { formatDateJa, formatMoney } from '@teiki/domain'
import { type ReactNode, useEffect, useState } from 'react'
import { useLocation } from 'react-router-dom'
import { apiGet, errorMessage } from '../../app/api.ts'
import { PlanOffers } from './plan-offers.tsx'
import { planStatusLabel, planStatusTone, trialLabel } from './plan-status.ts'

type LoadState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: PlanResponse }

/** プラン: the app plan of the shop, and the plans to change to (approved on the platform). */
export default function PlansPage() {
  // The platform sends the merchant back here with the charge's id after its approval page.
  const returned = new URLSearchParams(useLocation().search).has('charge_id')
  const [state, setState] = useState<LoadState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load on retry.
  useEffect(() => {
    let cancelled = false
    setState({ status: 'loading' })
    apiGet<PlanResponse>('/plan').then(
      (data) => !cancelled && setState({ status: 'success', data }),
      (error: unknown) => !cancelled && setState({ status: 'error', message: errorMessage(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [attempt])

  return (
    <Page title="プラン">
      <Layout>
        <Layout.Section>
          {state.status === 'error' ? (
            <Banner
              tone="critical"
              title="プランを読み込めませんでした"
              action={{ content: '再試行', onAction: () => setAttempt((n) => n + 1) }}
            >
              <p>{state.message}</p>
            </Banner>
          ) : state.status === 'loading' ? (
            <PlanSkeleton />
          ) : (
            <BlockStack gap="400">
              {returned ? (
                <div data-testid="plan-returned">
                  <Banner
                    tone={state.data.isActive ? 'success' : 'warning'}
                    title="ストアでの承認手続きから戻りました"
                  >
                    <p>
                      {state.data.isActive && state.data.currentPlan
                        ? `現在のプランは「${state.data.currentPlan.name}」です。`
                        : 'プランは有効になっていません。もう一度プランを選んでください。'}
                    </p>
                  </Banner>
                </div>
              ) : null}
              <PlanDetails data={state.data} />
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  )
}

function PlanDetails({ data }: { data: PlanResponse }) {
  return (
    <BlockStack gap="400">
      {data.isActive ? null : (
        <Banner tone="warning" title="有効なプランがありません">
          <p>
            Teiki
            の機能（定期購買契約の管理など）をご利用いただくには、有効なプランが必要です。下のプランから選んでください。
          </p>
        </Banner>
      )}
      <Card>
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            現在のプラン
          </Text>
          {data.currentPlan ? (
            <CurrentPlan plan={data.currentPlan} />
          ) : (
            <Text as="p">ご契約中のプランはありません。</Text>
          )}
          <Row label="Shopifyプラン">{data.shopifyPlan ?? '—'}</Row>
        </BlockStack>
      </Card>
      <PlanOffers currentName={data.isActive ? (data.currentPlan?.name ?? null) : null} />
    </BlockStack>
  )
}

function CurrentPlan({ plan }: { plan: AppPlan }) {
  return (
    <BlockStack gap="300">
      <InlineStack gap="200" blockAlign="center">
        <Text as="p" variant="headingLg">
          {plan.name}
        </Text>
        <Badge tone={planStatusTone[plan.status]}>{planStatusLabel[plan.status]}</Badge>
        {plan.test ? <Badge tone="info">テスト</Badge> : null}
      </InlineStack>
      <Row label="月額料金">{plan.price ? `${monthlyPrice(plan.price)}／月` : '—'}</Row>
      <Row label="無料体験期間">{trialLabel(plan.trialDays)}</Row>
      <Row label="現在の請求期間の終了日">
        {plan.currentPeriodEnd ? formatDateJa(plan.currentPeriodEnd, 'Asia/Tokyo') : '—'}
      </Row>
    </BlockStack>
  )
}

function monthlyPrice(price: NonNullable<AppPlan['price']>): string {
  return formatMoney(price.amount, price.currencyCode)
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
  return (
    <Card>
      <BlockStack gap="400">
        <SkeletonDisplayText size="small" />
        <SkeletonBodyText lines={4} />
      </BlockStack>
    </Card>
  )
}

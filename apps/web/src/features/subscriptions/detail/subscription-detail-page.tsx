import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  EmptyState,
  InlineStack,
  Layout,
  Page,
  SkeletonBodyText,
  SkeletonDisplayText,
  SkeletonPage,
} from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { statusLabel, statusTone } from '@teiki/domain'
import { useParams } from 'react-router-dom'
import { EMPTY_STATE_IMAGE } from '../../../app/empty-state-image.ts'
import { ContractInfoCard } from './contract-info-card.tsx'
import { CustomerCard, DeliveryCard, PaymentCard } from './customer-cards.tsx'
import { availableActions, type ContractAction } from './detail-format.ts'
import { BillingAttemptsCard, OrdersCard } from './history-cards.tsx'
import { DiscountsCard, LinesCard } from './lines-card.tsx'
import { useContractActions } from './use-contract-actions.tsx'
import { useSubscriptionDetail } from './use-subscription-detail.ts'

const BACK_ACTION = { content: '定期購買契約', url: '/' }

const ACTION_LABEL: Record<ContractAction, string> = { pause: '一時停止', resume: '再開', churn: '解約' }

/** 契約 #id: every field of one contract, with pause / resume / churn. */
export default function SubscriptionDetailPage() {
  const contractId = useParams().contractId ?? ''
  const { state, retry, reload } = useSubscriptionDetail(contractId)
  const title = `契約 #${contractId}`

  switch (state.status) {
    case 'loading':
      return <DetailSkeleton />
    case 'not-found':
      return (
        <Page title={title} backAction={BACK_ACTION}>
          <Card>
            <EmptyState
              heading="契約が見つかりません"
              action={{ content: '契約一覧へ戻る', url: '/' }}
              image={EMPTY_STATE_IMAGE}
            >
              <p>契約IDが正しいかご確認ください。</p>
            </EmptyState>
          </Card>
        </Page>
      )
    case 'error':
      return (
        <Page title={title} backAction={BACK_ACTION}>
          <Banner
            tone="critical"
            title="契約を読み込めませんでした"
            action={{ content: '再試行', onAction: retry }}
          >
            <p>{state.message}</p>
          </Banner>
        </Page>
      )
    case 'success':
      return <DetailView detail={state.data} isReloading={state.isReloading} reload={reload} />
  }
}

function DetailView({
  detail,
  isReloading,
  reload,
}: {
  detail: SubscriptionDetail
  isReloading: boolean
  reload: () => void
}) {
  const startAction = useContractActions(detail, reload)
  const actions = availableActions(detail.status)

  return (
    <Page
      title={`契約 #${detail.contractId}`}
      backAction={BACK_ACTION}
      titleMetadata={
        <span data-testid="contract-status">
          <Badge tone={statusTone[detail.status]}>{statusLabel[detail.status]}</Badge>
        </span>
      }
      secondaryActions={
        actions.length > 0 ? (
          <InlineStack gap="200">
            {actions.map((action) => (
              <span key={action} data-testid={`contract-action-${action}`}>
                <Button
                  tone={action === 'churn' ? 'critical' : undefined}
                  disabled={isReloading}
                  onClick={() => startAction(action)}
                >
                  {ACTION_LABEL[action]}
                </Button>
              </span>
            ))}
          </InlineStack>
        ) : undefined
      }
    >
      <div aria-busy={isReloading}>
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <ContractInfoCard detail={detail} />
              <LinesCard lines={detail.lines} />
              <DiscountsCard discounts={detail.discounts} />
              <OrdersCard orders={detail.orders} />
              <BillingAttemptsCard attempts={detail.billingAttempts} />
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <CustomerCard customer={detail.customer} />
              <DeliveryCard method={detail.deliveryMethod} />
              <PaymentCard method={detail.paymentMethod} />
            </BlockStack>
          </Layout.Section>
        </Layout>
      </div>
    </Page>
  )
}

function DetailSkeleton() {
  return (
    <SkeletonPage title="契約" backAction>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="400">
                <SkeletonDisplayText size="small" />
                <SkeletonBodyText lines={8} />
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="400">
                <SkeletonDisplayText size="small" />
                <SkeletonBodyText lines={4} />
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="400">
              <SkeletonDisplayText size="small" />
              <SkeletonBodyText lines={5} />
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  )
}

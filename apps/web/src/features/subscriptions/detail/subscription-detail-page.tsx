import { Badge, BlockStack, Button, Card, InlineStack, Layout, Page, SkeletonPage } from '@shopify/polaris'
import type { SubscriptionDetail, SubscriptionStatus } from '@teiki/contract'
import { statusLabel, statusTone } from '@teiki/domain'
import { useParams } from 'react-router-dom'
import { EmptyListState, LoadErrorState, SkeletonCard } from '../../../app/load-state.tsx'
import { lastListPath } from '../list-query.ts'
import { ContractInfoCard } from './contract-info-card.tsx'
import { CustomerCard, DeliveryCard, PaymentCard } from './customer-cards.tsx'
import { availableActions, type ContractAction } from './detail-format.ts'
import { DiscountsCard } from './discount-card.tsx'
import { BillingAttemptsCard, OrdersCard } from './history-cards.tsx'
import { LinesCard } from './lines-card.tsx'
import { OrderNowButton } from './order-now-button.tsx'
import { useContractActions } from './use-contract-actions.tsx'
import { useSubscriptionDetail } from './use-subscription-detail.ts'

/** Back to the list the merchant came from: its search, filters and page (list-query.ts). */
const backAction = () => ({ content: '定期購買契約', url: lastListPath() })

const ACTION_LABEL: Record<ContractAction, string> = { pause: '一時停止', resume: '再開', churn: '解約' }

/** Cancelled and expired contracts cannot change any more: their edit buttons are not shown. */
const EDITABLE: ReadonlySet<SubscriptionStatus> = new Set(['ACTIVE', 'PAUSED', 'FAILED'])
/** Billing now makes sense for a contract that bills (or failed to and should retry). */
const ORDER_NOW: ReadonlySet<SubscriptionStatus> = new Set(['ACTIVE', 'FAILED'])

/** 契約 #id: every field of one contract, its edits, pause / resume / churn and 今すぐ注文を作成. */
export default function SubscriptionDetailPage() {
  const contractId = useParams().contractId ?? ''
  const { state, retry, reload } = useSubscriptionDetail(contractId)
  const title = `契約 #${contractId}`

  switch (state.status) {
    case 'loading':
      return <DetailSkeleton />
    case 'not-found':
      return (
        <Page title={title} backAction={backAction()}>
          <Card>
            <EmptyListState heading="契約が見つかりません" action={{ content: '契約一覧へ戻る', url: '/' }}>
              <p>契約IDが正しいかご確認ください。</p>
            </EmptyListState>
          </Card>
        </Page>
      )
    case 'error':
      return (
        <Page title={title} backAction={backAction()}>
          <LoadErrorState title="契約を読み込めませんでした" message={state.message} onRetry={retry} />
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
  const editable = EDITABLE.has(detail.status)
  const cards = { detail, reload, editable, disabled: isReloading }

  return (
    <Page
      title={`契約 #${detail.contractId}`}
      backAction={backAction()}
      titleMetadata={
        <span data-testid="contract-status">
          <Badge tone={statusTone[detail.status]}>{statusLabel[detail.status]}</Badge>
        </span>
      }
      secondaryActions={
        actions.length > 0 || ORDER_NOW.has(detail.status) ? (
          <InlineStack gap="200">
            {ORDER_NOW.has(detail.status) ? (
              <OrderNowButton detail={detail} reload={reload} disabled={isReloading} />
            ) : null}
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
              <ContractInfoCard {...cards} />
              <LinesCard {...cards} />
              <DiscountsCard {...cards} />
              <OrdersCard orders={detail.orders} />
              <BillingAttemptsCard attempts={detail.billingAttempts} />
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <CustomerCard customer={detail.customer} contractId={detail.contractId} />
              <DeliveryCard {...cards} />
              <PaymentCard {...cards} />
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
            <SkeletonCard lines={8} />
            <SkeletonCard lines={4} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SkeletonCard lines={5} />
        </Layout.Section>
      </Layout>
    </SkeletonPage>
  )
}

import { BlockStack, Button, Card, InlineStack, List, Page, Text } from '@shopify/polaris'
import {
  type AppFeatureKey,
  appPlanByKey,
  featureRefusal,
  formatMoney,
  planFeatureLines,
  planForFeature,
  planLabel,
} from '@teiki/domain'
import { type ReactNode, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { usePlanUsage } from '../../app/subscription-check.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { choosePlan } from './choose-plan.ts'

/** Whether the shop's plan includes the feature (the page gate's check; true until it is known). */
export function useHasFeature(feature: AppFeatureKey): boolean {
  const usage = usePlanUsage()
  return usage === null || usage.features.includes(feature)
}

/**
 * A screen of a tiered feature (ADR 0029): the screen when the shop's plan includes it, else the
 * upgrade prompt under the screen's title, never the screen's calls refused one by one.
 */
export function FeatureGate({
  feature,
  title,
  children,
}: {
  feature: AppFeatureKey
  title: string
  children: ReactNode
}) {
  if (useHasFeature(feature)) return <>{children}</>
  return (
    <Page title={title}>
      <UpgradePrompt feature={feature} />
    </Page>
  )
}

/**
 * What a plan without the feature is offered: the plan that includes it (the same words as the
 * server's 403), its price and lines from the tier table, the upgrade (the platform's approval
 * page) and the comparison of every plan.
 */
export function UpgradePrompt({ feature }: { feature: AppFeatureKey }) {
  const usage = usePlanUsage()
  const ui = useUiState()
  const navigate = useAppNavigate()
  const [choosing, setChoosing] = useState(false)
  const needed = planForFeature(feature)
  const current = usage?.planKey ? planLabel(appPlanByKey(usage.planKey)) : null

  async function upgrade() {
    setChoosing(true)
    try {
      await choosePlan(needed.key)
    } catch (cause) {
      ui.showToast(errorMessage(cause), { error: true })
      setChoosing(false)
    }
  }

  return (
    <div data-testid="upgrade-prompt">
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {planLabel(needed)}へのアップグレードでご利用いただけます
          </Text>
          <Text as="p">{featureRefusal(feature, current)}</Text>
          <Text as="p" tone="subdued">
            {planLabel(needed)}: {formatMoney(needed.monthlyPrice, 'JPY')}／月（無料体験 {needed.trialDays}
            日間）
          </Text>
          <List>
            {planFeatureLines(needed.key).map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
          <InlineStack gap="200">
            <Button variant="primary" loading={choosing} onClick={() => void upgrade()}>
              {`${planLabel(needed)}にアップグレード`}
            </Button>
            <Button onClick={() => navigate('/plans')}>プランを比較する</Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </div>
  )
}

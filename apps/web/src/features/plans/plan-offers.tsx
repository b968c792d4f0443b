import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineGrid,
  InlineStack,
  List,
  SkeletonBodyText,
  Text,
} from '@shopify/polaris'
import type { AppPlanOffer } from '@teiki/contract'
import { formatMoney } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { apiGet, apiPut, errorMessage } from '../../app/api.ts'
import { LoadErrorBanner } from '../../app/load-error-banner.tsx'
import { useUiState } from '../../app/ui-state.tsx'

/**
 * The plans the merchant may choose. Choosing one asks the platform for the charge (PUT /plan)
 * and sends the merchant to its approval page (the whole window: inside the admin the page is
 * the platform's own); the platform brings them back here.
 */
export function PlanOffers({ currentName }: { currentName: string | null }) {
  const ui = useUiState()
  const [plans, setPlans] = useState<AppPlanOffer[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [choosing, setChoosing] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load.
  useEffect(() => {
    apiGet<{ plans: AppPlanOffer[] }>('/plans').then(
      (data) => setPlans(data.plans),
      (cause: unknown) => setError(errorMessage(cause)),
    )
  }, [attempt])

  async function choose(key: string) {
    setChoosing(key)
    try {
      const { confirmationUrl } = await apiPut<{ confirmationUrl: string }>('/plan', { plan: key })
      window.open(confirmationUrl, '_top')
    } catch (cause) {
      ui.showToast(errorMessage(cause), { error: true })
      setChoosing(null)
    }
  }

  if (error)
    return (
      <LoadErrorBanner
        title="プランの一覧を読み込めませんでした"
        message={error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    )
  if (!plans)
    return (
      <Card>
        <SkeletonBodyText lines={6} />
      </Card>
    )
  return (
    <BlockStack gap="300">
      <Text as="h2" variant="headingMd">
        プランを選ぶ
      </Text>
      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        {plans.map((plan) => {
          const current = currentName === `Teiki ${plan.name}`
          return (
            <Card key={plan.key}>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h3" variant="headingLg">
                    {plan.name}
                  </Text>
                  {current ? <Badge tone="success">ご利用中</Badge> : null}
                </InlineStack>
                <Text as="p" variant="headingXl">
                  {formatMoney(plan.monthlyPrice, 'JPY')}
                  <Text as="span" tone="subdued">
                    ／月
                  </Text>
                </Text>
                <Text as="p" tone="subdued">
                  無料体験 {plan.trialDays}日間
                </Text>
                <Box minHeight="6rem">
                  <List>
                    {plan.features.map((feature) => (
                      <List.Item key={feature}>{feature}</List.Item>
                    ))}
                  </List>
                </Box>
                <div data-testid={`choose-plan-${plan.key}`}>
                  <Button
                    variant={current ? 'secondary' : 'primary'}
                    disabled={current || choosing !== null}
                    loading={choosing === plan.key}
                    onClick={() => void choose(plan.key)}
                    fullWidth
                  >
                    {current ? 'ご利用中のプラン' : 'このプランにする'}
                  </Button>
                </div>
              </BlockStack>
            </Card>
          )
        })}
      </InlineGrid>
    </BlockStack>
  )
}

import { Badge, BlockStack, Box, Button, Card, InlineGrid, InlineStack, List, Text } from '@shopify/polaris'
import type { AppPlanOffer, PlanResponse } from '@teiki/contract'
import { formatMoney } from '@teiki/domain'
import { useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { LoadErrorState, LoadingState } from '../../app/load-state.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { useApi } from '../../app/use-api.ts'
import { choosePlan } from './choose-plan.ts'
import { offerAction } from './plan-model.ts'

/**
 * The plans the merchant may choose, each with what it includes (the server's tier table). The
 * plan held says 現在のプラン; choosing another asks the platform for the charge and sends the
 * merchant to its approval page; the platform brings them back here.
 */
export function PlanOffers({ current }: { current: Pick<PlanResponse, 'isActive' | 'catalogueKey'> }) {
  const ui = useUiState()
  const offers = useApi('GET /plans')
  const plans = offers.data?.plans
  const [choosing, setChoosing] = useState<string | null>(null)

  async function choose(key: AppPlanOffer['key']) {
    setChoosing(key)
    try {
      await choosePlan(key)
    } catch (cause) {
      ui.showToast(errorMessage(cause), { error: true })
      setChoosing(null)
    }
  }

  if (offers.error && !plans)
    return (
      <LoadErrorState
        title="プランの一覧を読み込めませんでした"
        error={offers.error}
        onRetry={offers.retry}
      />
    )
  if (!plans) return <LoadingState lines={6} card />
  return (
    <BlockStack gap="300">
      <Text as="h2" variant="headingMd">
        プランを選ぶ
      </Text>
      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        {plans.map((plan) => {
          const held = offerAction(plan.key, current) === 'current'
          return (
            <Card key={plan.key}>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h3" variant="headingLg">
                    {plan.name}
                  </Text>
                  {held ? <Badge tone="success">ご利用中</Badge> : null}
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
                <Box minHeight="7rem">
                  <List>
                    {plan.features.map((feature) => (
                      <List.Item key={feature}>{feature}</List.Item>
                    ))}
                  </List>
                </Box>
                <div data-testid={`choose-plan-${plan.key}`}>
                  {held ? (
                    <Box padding="200" background="bg-surface-secondary" borderRadius="200">
                      <Text as="p" alignment="center" fontWeight="semibold">
                        現在のプラン
                      </Text>
                    </Box>
                  ) : (
                    <Button
                      variant="primary"
                      disabled={choosing !== null}
                      loading={choosing === plan.key}
                      onClick={() => void choose(plan.key)}
                      fullWidth
                    >
                      このプランにする
                    </Button>
                  )}
                </div>
              </BlockStack>
            </Card>
          )
        })}
      </InlineGrid>
    </BlockStack>
  )
}

import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  InlineStack,
  ResourceItem,
  ResourceList,
  Text,
  Thumbnail,
} from '@shopify/polaris'
import { ImageIcon, PlusIcon } from '@shopify/polaris-icons'
import { GROUP_PRODUCTS_SHOWN, type SellingPlanGroupDetail } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { type PickerSelection, selectionLabel } from '../../app/product-picker-model.ts'
import { SectionCard } from '../../app/section-card.tsx'
import type { UiState } from '../../app/ui-state.tsx'
import type { PlansApi } from './plans-api.ts'

/** The products of a saved group: its first 30 (spec §9), add through the picker, take one out. */
export function GroupProductsCard({
  detail,
  onAdd,
  onRemove,
}: {
  detail: SellingPlanGroupDetail
  onAdd: () => void
  onRemove: (productId: string) => void
}) {
  const more = detail.productsCount - detail.products.length
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <BlockStack gap="050">
            <Text as="h2" variant="headingMd">
              商品
            </Text>
            <Text as="p" tone="subdued" variant="bodySm">
              {formatNumber(detail.productsCount)}商品・{formatNumber(detail.productVariantsCount)}
              バリエーション
            </Text>
          </BlockStack>
          <Button icon={PlusIcon} onClick={onAdd}>
            商品を追加
          </Button>
        </InlineStack>
        {detail.products.length === 0 ? (
          <Text as="p" tone="subdued">
            まだ商品がありません。「商品を追加」から定期便で販売する商品を選んでください。
          </Text>
        ) : (
          <ResourceList
            resourceName={{ singular: '商品', plural: '商品' }}
            items={detail.products}
            renderItem={(product) => (
              <ResourceItem
                id={product.id}
                onClick={() => {}}
                media={<Thumbnail source={product.imageUrl ?? ImageIcon} alt={product.title} size="small" />}
                shortcutActions={[{ content: '外す', onAction: () => onRemove(product.id) }]}
                persistActions
              >
                <Text as="span" fontWeight="semibold">
                  {product.title}
                </Text>
              </ResourceItem>
            )}
          />
        )}
        {more > 0 ? (
          <Text as="p" tone="subdued" variant="bodySm">
            ほか{formatNumber(more)}商品（最初の{GROUP_PRODUCTS_SHOWN}商品を表示しています）
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  )
}

/** A new group's products: picked now, added when the group is created. */
export function NewGroupProductsCard({ picked, onPick }: { picked: PickerSelection; onPick: () => void }) {
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            商品
          </Text>
          <Button icon={PlusIcon} onClick={onPick}>
            商品を選ぶ
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued">
          {selectionLabel(picked)}（販売プランの作成時に追加します）
        </Text>
      </BlockStack>
    </Card>
  )
}

/** 送料無料: the group in or out of the app's free-shipping delivery profile, saved at once. */
export function FreeShippingCard({
  api,
  groupId,
  ui,
}: {
  api: PlansApi
  groupId: string
  ui: Pick<UiState, 'showToast'>
}) {
  const [state, setState] = useState<{ free: boolean | null; busy: boolean; error: string | null }>({
    free: null,
    busy: true,
    error: null,
  })
  useEffect(() => {
    let cancelled = false
    api.freeShipping(groupId).then(
      (answer) => !cancelled && setState({ free: answer.free ?? false, busy: false, error: null }),
      (error: unknown) => !cancelled && setState({ free: null, busy: false, error: errorMessage(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [api, groupId])

  const toggle = async (free: boolean) => {
    setState((s) => ({ ...s, busy: true }))
    try {
      const answer = await api.setFreeShipping(groupId, free)
      setState({ free: answer.free, busy: false, error: null })
      ui.showToast(answer.free ? '送料無料にしました' : '送料無料を解除しました')
    } catch (error) {
      setState((s) => ({ ...s, busy: false }))
      ui.showToast(errorMessage(error), { error: true })
    }
  }

  return (
    <SectionCard title="送料" gap="200">
      <div data-testid="free-shipping">
        <Checkbox
          label="この販売プランで購入された商品の送料を無料にする"
          helpText="ストアの配送設定に、送料無料（¥0）の配送プロファイル「定期便送料無料（Teiki）」を作成して追加します。"
          checked={state.free ?? false}
          disabled={state.busy || state.free === null}
          onChange={(checked) => void toggle(checked)}
        />
      </div>
      {state.error ? (
        <Text as="p" tone="critical">
          送料の設定を読み込めませんでした：{state.error}
        </Text>
      ) : null}
    </SectionCard>
  )
}

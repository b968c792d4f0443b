import {
  BlockStack,
  Box,
  Icon,
  InlineStack,
  Listbox,
  Spinner,
  Text,
  TextField,
  Thumbnail,
} from '@shopify/polaris'
import { ImageIcon, SearchIcon } from '@shopify/polaris-icons'
import { useState } from 'react'
import { safeMoney } from './detail-format.ts'
import { EmptyLine } from './detail-section.tsx'
import { variantName } from './line-edits.ts'
import { offeredVariants, useVariantSearch, type VariantSummary } from './variant-search.ts'

/** A debounced variant search with its results; picking one calls `onSelect`. */
export function VariantPicker({
  currencyCode,
  selected,
  onSelect,
  error,
  excludedIds = [],
}: {
  currencyCode: string
  selected: VariantSummary | null
  onSelect: (variant: VariantSummary) => void
  error?: string
  /** Variants not to offer (a swap leaves out the line's current one). */
  excludedIds?: readonly (string | null)[]
}) {
  const [query, setQuery] = useState('')
  const search = useVariantSearch(query)

  return (
    <BlockStack gap="200">
      <div data-testid="variant-search-input">
        <TextField
          label="商品を検索"
          value={query}
          onChange={setQuery}
          placeholder="商品名・バリエーション名・SKU"
          prefix={<Icon source={SearchIcon} />}
          clearButton
          onClearButtonClick={() => setQuery('')}
          autoComplete="off"
          error={error}
        />
      </div>
      {selected ? (
        <Text as="p">
          選択中: <strong>{variantName(selected)}</strong>（{priceText(selected.price, currencyCode)}）
        </Text>
      ) : null}
      <SearchResults
        search={search}
        excludedIds={excludedIds}
        currencyCode={currencyCode}
        selected={selected}
        onSelect={onSelect}
      />
    </BlockStack>
  )
}

function SearchResults({
  search,
  excludedIds,
  currencyCode,
  selected,
  onSelect,
}: {
  search: ReturnType<typeof useVariantSearch>
  excludedIds: readonly (string | null)[]
  currencyCode: string
  selected: VariantSummary | null
  onSelect: (variant: VariantSummary) => void
}) {
  switch (search.status) {
    case 'idle':
      return <EmptyLine>商品名またはSKUを入力して検索してください</EmptyLine>
    case 'loading':
      return (
        <InlineStack align="center">
          <Spinner size="small" accessibilityLabel="検索中" />
        </InlineStack>
      )
    case 'error':
      return (
        <Text as="p" tone="critical">
          商品を検索できませんでした：{search.message}
        </Text>
      )
    case 'done': {
      const variants = offeredVariants(search.variants, excludedIds)
      if (variants.length === 0) {
        return (
          <EmptyLine>
            {search.variants.length > 0
              ? '現在の商品のほかに該当する商品がありません'
              : '該当する商品がありません'}
          </EmptyLine>
        )
      }
      return (
        <Listbox
          accessibilityLabel="検索結果"
          onSelect={(id) => {
            const variant = variants.find((v) => v.id === id)
            if (variant) onSelect(variant)
          }}
        >
          {variants.map((variant) => (
            <Listbox.Option key={variant.id} value={variant.id} selected={selected?.id === variant.id}>
              <div data-testid={`variant-option-${variant.id}`} style={{ width: '100%' }}>
                <VariantRow variant={variant} currencyCode={currencyCode} />
              </div>
            </Listbox.Option>
          ))}
        </Listbox>
      )
    }
  }
}

function VariantRow({ variant, currencyCode }: { variant: VariantSummary; currencyCode: string }) {
  const title = variant.title?.trim() ?? ''
  return (
    <Box padding="200">
      <InlineStack gap="300" wrap={false} blockAlign="center">
        <Thumbnail
          source={variant.imageUrl ?? ImageIcon}
          alt={variant.imageUrl ? variant.productTitle : ''}
          size="small"
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          <BlockStack gap="050">
            <Text as="span" fontWeight="medium">
              {variant.productTitle}
            </Text>
            <Text as="span" tone="subdued">
              {title === '' || title === 'Default Title' ? 'バリエーションなし' : title}
              {' ・ '}SKU {variant.sku || '—'}
            </Text>
          </BlockStack>
        </div>
        <Box minWidth="5rem">
          <Text as="p" alignment="end" numeric>
            {priceText(variant.price, currencyCode)}
          </Text>
        </Box>
      </InlineStack>
    </Box>
  )
}

function priceText(price: string | null, currencyCode: string): string {
  return price === null ? '価格未設定' : safeMoney(price, currencyCode)
}

import { BlockStack, Box, Button, Checkbox, InlineStack, Modal, Text, Thumbnail } from '@shopify/polaris'
import { ImageIcon } from '@shopify/polaris-icons'
import { PRODUCT_PAGE_SIZE, type ProductList, type ProductWithVariants } from '@teiki/contract'
import { formatMoney } from '@teiki/domain'
import { useState } from 'react'
import { useDebouncedSearch } from '../features/subscriptions/use-debounced-search.ts'
import { ListPagination } from './list-pagination.tsx'
import { LoadErrorState, LoadingState } from './load-state.tsx'
import {
  EMPTY_SELECTION,
  type PickerSelection,
  productState,
  selectionLabel,
  toggleProduct,
  toggleVariant,
} from './product-picker-model.ts'
import { SearchField } from './search-field.tsx'
import { type ApiState, useApi } from './use-api.ts'

/**
 * The app's own product picker for pages without the store admin around them (the local
 * default): search, 10 a page, pictures, whole products or single variants. Inside the admin,
 * App Bridge's resource picker is used instead (product-picker.tsx decides).
 */
export function ProductPickerModal({
  open,
  title,
  currencyCode,
  onClose,
  onPick,
}: {
  open: boolean
  title: string
  currencyCode: string
  onClose: () => void
  onPick: (selection: PickerSelection) => void
}) {
  const [query, setQuery] = useState('')
  const [page, setPage] = useState(1)
  const [selection, setSelection] = useState<PickerSelection>(EMPTY_SELECTION)
  const search = useDebouncedSearch(query, (text) => {
    setQuery(text)
    setPage(1)
  })
  const list = useApi('GET /products', { query: { query, page } })
  const empty = selection.productIds.length === 0 && selection.variantIds.length === 0

  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      primaryAction={{ content: '追加', disabled: empty, onAction: () => onPick(selection) }}
      secondaryActions={[{ content: 'キャンセル', onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <SearchField
            testId="product-picker-search"
            label="商品を検索"
            placeholder="商品名・バリエーション名・SKUで検索"
            search={search}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {selectionLabel(selection)}
          </Text>
          <ProductRows
            list={list}
            selection={selection}
            currencyCode={currencyCode}
            onChange={setSelection}
          />
          {list.data && list.data.total > PRODUCT_PAGE_SIZE ? (
            <ListPagination
              testId="product-picker-pagination"
              range={{
                offset: (page - 1) * PRODUCT_PAGE_SIZE,
                shown: list.data.products.length,
                total: list.data.total,
              }}
              hasPrevious={page > 1}
              onPrevious={() => setPage((p) => p - 1)}
              hasNext={page * PRODUCT_PAGE_SIZE < list.data.total}
              onNext={() => setPage((p) => p + 1)}
            />
          ) : null}
        </BlockStack>
      </Modal.Section>
    </Modal>
  )
}

function ProductRows({
  list,
  selection,
  currencyCode,
  onChange,
}: {
  list: ApiState<ProductList>
  selection: PickerSelection
  currencyCode: string
  onChange: (next: PickerSelection) => void
}) {
  if (!list.data)
    return list.error && !list.isValidating ? (
      <LoadErrorState title="商品を読み込めませんでした" error={list.error} onRetry={list.retry} />
    ) : (
      <LoadingState lines={4} />
    )
  if (list.data.products.length === 0)
    return (
      <Text as="p" tone="subdued">
        該当する商品がありません
      </Text>
    )
  return (
    <BlockStack gap="200">
      {list.data.products.map((product) => (
        <ProductRow
          key={product.id}
          product={product}
          selection={selection}
          currencyCode={currencyCode}
          onChange={onChange}
        />
      ))}
    </BlockStack>
  )
}

function ProductRow({
  product,
  selection,
  currencyCode,
  onChange,
}: {
  product: ProductWithVariants
  selection: PickerSelection
  currencyCode: string
  onChange: (next: PickerSelection) => void
}) {
  const state = productState(selection, product)
  const several = product.variants.length > 1
  // Many single-item variants (a よりどり product) stay folded until asked for.
  const [expanded, setExpanded] = useState(product.variants.length <= 5)
  return (
    <Box paddingBlockEnd="200" borderBlockEndWidth="025" borderColor="border">
      <div data-testid={`product-picker-product-${product.id}`}>
        <InlineStack gap="300" blockAlign="center" wrap={false}>
          <Checkbox
            label={product.title}
            labelHidden
            checked={state === 'all' ? true : state === 'some' ? 'indeterminate' : false}
            onChange={() => onChange(toggleProduct(selection, product))}
          />
          <Thumbnail source={product.imageUrl ?? ImageIcon} alt={product.title} size="small" />
          <BlockStack gap="050">
            <Text as="span" fontWeight="semibold">
              {product.title}
            </Text>
            <Text as="span" variant="bodySm" tone="subdued">
              {several
                ? `${product.variants.length}バリエーション`
                : product.variants[0]?.price
                  ? formatMoney(product.variants[0].price, currencyCode)
                  : ''}
            </Text>
          </BlockStack>
        </InlineStack>
      </div>
      {several && !expanded ? (
        <Box paddingInlineStart="1200" paddingBlockStart="100">
          <Button variant="plain" onClick={() => setExpanded(true)}>
            バリエーションを個別に選ぶ
          </Button>
        </Box>
      ) : null}
      {several && expanded ? (
        <Box paddingInlineStart="1200" paddingBlockStart="100">
          <BlockStack gap="050">
            {product.variants.map((v) => (
              <Checkbox
                key={v.id}
                label={`${v.title}${v.price ? `（${formatMoney(v.price, currencyCode)}）` : ''}`}
                checked={state === 'all' || selection.variantIds.includes(v.id)}
                onChange={() => onChange(toggleVariant(selection, product, v.id))}
              />
            ))}
          </BlockStack>
        </Box>
      ) : null}
    </Box>
  )
}

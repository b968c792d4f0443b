import type { ProductWithVariants } from '@teiki/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appBridgePicker, pickWithAppBridge } from '../src/app/product-picker.tsx'
import {
  EMPTY_SELECTION,
  productState,
  selectionFromResourcePicker,
  selectionLabel,
  toggleProduct,
  toggleVariant,
} from '../src/app/product-picker-model.ts'

const coffee: ProductWithVariants = {
  id: '10',
  title: '有機ドリップコーヒー定期便',
  imageUrl: null,
  variants: [
    { id: '101', title: '中煎り 200g', sku: null, price: '1980' },
    { id: '102', title: '深煎り 200g', sku: null, price: '1980' },
    { id: '103', title: '中煎り 500g', sku: null, price: '4280' },
  ],
}

afterEach(() => vi.unstubAllGlobals())

describe('the product picker decides: App Bridge inside the admin, the app’s modal otherwise', () => {
  it('uses App Bridge’s resource picker when the page has it, and reads its answer', async () => {
    expect(appBridgePicker()).toBeUndefined()
    const resourcePicker = vi.fn(async () => [
      {
        id: 'gid://shopify/Product/10',
        title: 'x',
        variants: coffee.variants.map((v) => ({ id: `gid://shopify/ProductVariant/${v.id}` })),
        totalVariants: 3,
      },
      {
        id: 'gid://shopify/Product/20',
        title: 'y',
        variants: [{ id: 'gid://shopify/ProductVariant/201' }],
        totalVariants: 2,
      },
    ])
    vi.stubGlobal('window', { shopify: { resourcePicker } })
    const picker = appBridgePicker()
    expect(picker).toBe(resourcePicker)
    expect(await pickWithAppBridge(picker!)).toEqual({ productIds: ['10'], variantIds: ['201'] })
    expect(resourcePicker).toHaveBeenCalledWith({
      type: 'product',
      action: 'add',
      multiple: true,
      filter: { variants: true },
    })
  })

  it('reads a cancelled App Bridge picker as null', async () => {
    expect(await pickWithAppBridge(async () => undefined)).toBeNull()
    expect(selectionFromResourcePicker([])).toEqual(EMPTY_SELECTION)
  })
})

describe('the modal’s selection', () => {
  it('toggles a whole product, and single variants; all variants become the product', () => {
    let s = toggleProduct(EMPTY_SELECTION, coffee)
    expect(s).toEqual({ productIds: ['10'], variantIds: [] })
    expect(productState(s, coffee)).toBe('all')
    s = toggleVariant(s, coffee, '102')
    expect(s).toEqual({ productIds: [], variantIds: ['101', '103'] })
    expect(productState(s, coffee)).toBe('some')
    expect(selectionLabel(s)).toBe('2バリエーションを選択中')
    s = toggleVariant(s, coffee, '102')
    expect(s).toEqual({ productIds: ['10'], variantIds: [] })
    s = toggleProduct(toggleVariant(EMPTY_SELECTION, coffee, '101'), coffee)
    expect(s).toEqual(EMPTY_SELECTION)
    expect(selectionLabel(s)).toBe('選択されていません')
    expect(selectionLabel({ productIds: ['1', '2'], variantIds: ['3'] })).toBe(
      '2商品・1バリエーションを選択中',
    )
  })
})

import type { ProductWithVariants } from '@teiki/contract'
import type { ResourcePickerProduct } from './app-bridge.d.ts'

/**
 * What a product picker answers, whichever picker it was (App Bridge's inside the admin, the
 * app's own modal on the local default): whole products, and variants picked without their
 * whole product. Ids are the platform's numbers.
 */
export type PickerSelection = { productIds: string[]; variantIds: string[] }

export const EMPTY_SELECTION: PickerSelection = { productIds: [], variantIds: [] }

const numberOfGid = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1)

/** App Bridge's answer: a product whose every variant was picked counts as the whole product. */
export function selectionFromResourcePicker(
  picked: readonly ResourcePickerProduct[] | undefined,
): PickerSelection | null {
  if (!picked) return null
  const productIds: string[] = []
  const variantIds: string[] = []
  for (const product of picked) {
    const whole = product.totalVariants === undefined || product.variants.length >= product.totalVariants
    if (whole || product.variants.length === 0) productIds.push(numberOfGid(product.id))
    else variantIds.push(...product.variants.map((v) => numberOfGid(v.id)))
  }
  return { productIds, variantIds }
}

export type ProductState = 'all' | 'some' | 'none'

/** Whether a product is picked whole, in part (some variants) or not at all. */
export function productState(selection: PickerSelection, product: ProductWithVariants): ProductState {
  if (selection.productIds.includes(product.id)) return 'all'
  return product.variants.some((v) => selection.variantIds.includes(v.id)) ? 'some' : 'none'
}

const withoutVariantsOf = (ids: readonly string[], product: ProductWithVariants) =>
  ids.filter((id) => !product.variants.some((v) => v.id === id))

/** Picks the whole product, or (picked whole or in part) none of it. */
export function toggleProduct(selection: PickerSelection, product: ProductWithVariants): PickerSelection {
  const state = productState(selection, product)
  const variantIds = withoutVariantsOf(selection.variantIds, product)
  const productIds = selection.productIds.filter((id) => id !== product.id)
  return state === 'none'
    ? { productIds: [...productIds, product.id], variantIds }
    : { productIds, variantIds }
}

/** Picks or unpicks one variant; every variant picked becomes the whole product. */
export function toggleVariant(
  selection: PickerSelection,
  product: ProductWithVariants,
  variantId: string,
): PickerSelection {
  const all = product.variants.map((v) => v.id)
  const picked =
    productState(selection, product) === 'all' ? all : selection.variantIds.filter((id) => all.includes(id))
  const next = picked.includes(variantId) ? picked.filter((id) => id !== variantId) : [...picked, variantId]
  const productIds = selection.productIds.filter((id) => id !== product.id)
  const variantIds = withoutVariantsOf(selection.variantIds, product)
  if (next.length === all.length) return { productIds: [...productIds, product.id], variantIds }
  return { productIds, variantIds: [...variantIds, ...all.filter((id) => next.includes(id))] }
}

/** 「3商品・2バリエーションを選択中」. */
export function selectionLabel(selection: PickerSelection): string {
  const parts = []
  if (selection.productIds.length > 0) parts.push(`${selection.productIds.length}商品`)
  if (selection.variantIds.length > 0) parts.push(`${selection.variantIds.length}バリエーション`)
  return parts.length === 0 ? '選択されていません' : `${parts.join('・')}を選択中`
}

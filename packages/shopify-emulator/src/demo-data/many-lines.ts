import { cyclePrice } from '../pricing.ts'
import type { ContractRecord, ShopState, VariantRecord } from '../records.ts'
import { nextId } from '../store.ts'
import { hashString, Rng } from './prng.ts'
import { productImagePath } from './product-images.ts'
import { DAY } from './schedule.ts'

/**
 * Line counts of the big-box contracts: just over one page of the 60 lines the app reads at a
 * time (spec §9), and over two pages and over 100 (the platform's 200-line tenant is the top).
 */
export const MANY_LINE_COUNTS = [64, 130] as const

/** One big-box contract per this many contracts (at least one in a shop of 20 or more). */
const CONTRACTS_PER_BIG_BOX = 200

/**
 * Shops sell mix-and-match boxes (よりどり詰め合わせ) whose subscribers hold dozens of lines.
 * After the shop is generated, a few ACTIVE contracts become such boxes: a product with
 * 130 single-item variants joins their selling plan group and the contracts gain lines of it
 * up to 64 or 130 lines. A generator of its own (seeded from the domain) adds them after
 * everything else, so every other generated record is what it was without them.
 */
export function addManyLineContracts(shop: ShopState, seed: number, now: number): void {
  if (shop.contracts.length < 20) return
  const rng = new Rng(hashString(`${shop.info.myshopifyDomain}:many-lines`) ^ seed)
  const active = shop.contracts.filter((c, i) => i >= 10 && c.status === 'ACTIVE' && c.lines.length > 0)
  const count = Math.min(
    active.length,
    Math.max(1, Math.floor(shop.contracts.length / CONTRACTS_PER_BIG_BOX)),
  )
  if (count === 0) return
  const variants = addBoxProduct(shop, rng, now)
  for (let k = 0; k < count; k++) {
    const contract = active[Math.floor((k * active.length) / count)]!
    fillLines(shop, contract, variants, MANY_LINE_COUNTS[k % MANY_LINE_COUNTS.length]!, rng)
  }
}

function addBoxProduct(shop: ShopState, rng: Rng, now: number): VariantRecord[] {
  const createdAt = now - 400 * DAY
  const productId = nextId(shop, 'Product')
  const variants: VariantRecord[] = []
  for (let i = 1; i <= Math.max(...MANY_LINE_COUNTS); i++) {
    const variant = {
      id: nextId(shop, 'ProductVariant'),
      productId,
      title: `No.${i}`,
      sku: `TK-YORIDORI-${String(i).padStart(3, '0')}`,
      price: 300 + rng.int(0, 10) * 50,
      createdAt,
    }
    shop.variants.push(variant)
    variants.push(variant)
  }
  shop.products.push({
    id: productId,
    title: 'よりどり詰め合わせ（単品）',
    handle: 'yoridori-tanpin',
    status: 'ACTIVE',
    vendor: shop.info.name,
    productType: '詰め合わせ',
    createdAt,
    updatedAt: createdAt,
    imageUrl: productImagePath('yoridori-tanpin'),
    variantIds: variants.map((v) => v.id),
  })
  return variants
}

/** Adds lines of the box's variants (one each) until the contract has `total` lines. */
function fillLines(
  shop: ShopState,
  contract: ContractRecord,
  variants: readonly VariantRecord[],
  total: number,
  rng: Rng,
): void {
  const model = contract.lines[0]!
  const group = shop.sellingPlanGroups.find((g) => g.sellingPlans.some((p) => p.id === model.sellingPlanId))
  if (group && !group.productIds.includes(variants[0]!.productId))
    group.productIds.push(variants[0]!.productId)
  const policies = model.pricingPolicy?.cycleDiscounts ?? []
  // The price of the cycles after the first: the policy that applies last.
  const recurring = policies[policies.length - 1]
  for (let i = 0; contract.lines.length < total; i++) {
    const v = variants[i]!
    contract.lines.push({
      ...model,
      id: nextId(shop, 'SubscriptionLine'),
      productId: v.productId,
      variantId: v.id,
      title: 'よりどり詰め合わせ（単品）',
      variantTitle: v.title,
      sku: v.sku,
      quantity: rng.weighted([1, 2], [85, 15]),
      currentPrice: recurring ? cyclePrice(v.price, recurring, contract.currencyCode) : v.price,
      pricingPolicy: model.pricingPolicy ? { basePrice: v.price, cycleDiscounts: policies } : null,
    })
  }
}

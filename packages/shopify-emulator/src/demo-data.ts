import { generateContract } from './demo-data/contracts.ts'
import { addAuthenticationCards, addSecondCards, generateCustomers } from './demo-data/customers.ts'
import { addDemoPlanGroups } from './demo-data/demo-plans.ts'
import { History } from './demo-data/history.ts'
import { addManyLineContracts } from './demo-data/many-lines.ts'
import { hashString, Rng } from './demo-data/prng.ts'
import { generateCatalog } from './demo-data/products.ts'
import { DAY } from './demo-data/schedule.ts'
import { DEMO_DOMAIN, installation, shopInfo } from './demo-data/shop-info.ts'
import type { ContractStatus, ShopState, VariantRecord } from './records.ts'

export { DEMO_BOX_CODE, DEMO_MULTI_CODE } from './demo-data/demo-plans.ts'
export { DEMO_DOMAIN } from './demo-data/shop-info.ts'

export type GenerateShopOptions = {
  domain: string
  seed: number
  now: Date
  contracts: number
  customers?: number
  withAppPlan?: boolean
}

const HISTORY_DAYS = 548 // 18 months
/** First id of each GID type: realistic sizes (variants 14 digits, contracts 11, customers/orders 13). */
const idStarts: Record<string, [base: number, spread: number]> = {
  Customer: [7_400_000_000_000, 100_000_000_000],
  CustomerPaymentMethod: [20_000_000_000, 1_000_000_000],
  MailingAddress: [8_900_000_000_000, 10_000_000_000],
  Product: [8_100_000_000_000, 100_000_000_000],
  ProductVariant: [44_100_000_000_000, 1_000_000_000_000],
  SellingPlanGroup: [4_200_000_000, 100_000_000],
  SellingPlan: [6_900_000_000, 100_000_000],
  SubscriptionContract: [21_000_000_000, 1_000_000_000],
  SubscriptionLine: [150_000_000_000, 10_000_000_000],
  Order: [5_900_000_000_000, 100_000_000_000],
  SubscriptionBillingAttempt: [90_000_000_000, 1_000_000_000],
}

const forcedStatuses: readonly ContractStatus[] = ['ACTIVE', 'CANCELLED', 'PAUSED', 'FAILED', 'EXPIRED']

/**
 * A whole shop, deterministically: the same options (seed, now, domain, counts) give deep-equal
 * state. 18 months of history end at `now`. Contracts, orders and attempts get ids in time order.
 */
export function generateShop(opts: GenerateShopOptions): ShopState {
  const rng = new Rng(hashString(opts.domain) ^ opts.seed)
  const now = Math.floor(opts.now.getTime() / 1000) * 1000
  const contractCount = Math.max(0, Math.floor(opts.contracts))
  const customerCount =
    opts.customers ?? Math.max(contractCount > 0 ? 1 : 0, Math.round(contractCount * 0.85))
  const info = shopInfo(rng, opts.domain)
  const nextIds: Record<string, number> = {}
  for (const [type, [base, spread]] of Object.entries(idStarts)) nextIds[type] = base + rng.int(0, spread)
  const shop: ShopState = {
    generatedWith: {
      seed: opts.seed,
      now,
      contracts: contractCount,
      customers: opts.customers,
      withAppPlan: opts.withAppPlan,
    },
    info,
    installation: installation(rng, opts.domain, now, opts.withAppPlan !== false),
    customers: [],
    paymentMethods: [],
    products: [],
    variants: [],
    sellingPlanGroups: [],
    contracts: [],
    orders: [],
    billingAttempts: [],
    nextIds,
  }
  const plans = generateCatalog(rng, shop, now)
  const variantsByGroup = new Map<number, VariantRecord[]>()
  for (const g of shop.sellingPlanGroups) {
    const ids = new Set(g.productIds)
    variantsByGroup.set(
      g.id,
      shop.variants.filter((v) => ids.has(v.productId)),
    )
  }

  // Contract creation times over the last 18 months; the five oldest carry one status each so
  // every status exists (and is old enough to have history).
  const times = new Float64Array(contractCount)
  for (let i = 0; i < contractCount; i++)
    times[i] = now - Math.floor((rng.next() * HISTORY_DAYS * DAY) / 1000) * 1000
  times.sort()
  for (let i = 0; i < Math.min(5, contractCount); i++) times[i] = Math.min(times[i]!, now - (150 - i) * DAY)

  // Customers sign up shortly before the contracts they will hold, so buyers spread evenly.
  const customerTimes: number[] = []
  for (let i = 0; i < customerCount; i++) {
    const anchor =
      i < contractCount && contractCount > 0
        ? times[Math.floor((i * contractCount) / customerCount)]!
        : now - rng.next() * HISTORY_DAYS * DAY
    customerTimes.push(Math.floor((anchor - rng.int(60, 3 * 86_400) * 1000) / 1000) * 1000)
  }
  customerTimes.sort((a, b) => a - b)
  generateCustomers(rng, shop, customerTimes, new Date(now))

  // Each contract goes to a customer who already exists: mostly a new one, sometimes a repeat buyer.
  const history = new History()
  const customerIndexOf: number[] = []
  let available = 0
  let used = 0
  for (let i = 0; i < contractCount; i++) {
    const createdAt = times[i]!
    while (available < customerCount && customerTimes[available]! <= createdAt) available++
    let customerIndex: number
    if (used < available && (used === 0 || rng.chance(0.85))) customerIndex = used++
    else if (used > 0) customerIndex = rng.int(0, used - 1)
    else customerIndex = used++
    customerIndexOf.push(customerIndex)
    generateContract(rng, shop, history, {
      createdAt,
      now,
      customerIndex,
      forcedStatus: i < forcedStatuses.length ? forcedStatuses[i]! : null,
      plans,
      variantsByGroup,
    })
  }
  history.finalize(shop, customerIndexOf)
  addManyLineContracts(shop, opts.seed, now)
  addSecondCards(new Rng(hashString(`${opts.domain}#cards`) ^ opts.seed), shop, new Date(now))
  // Only the demo shop: test and benchmark shops charge at once unless a test asks otherwise.
  if (opts.domain === DEMO_DOMAIN) {
    addAuthenticationCards(shop)
    addDemoPlanGroups(shop, now)
  }
  return shop
}

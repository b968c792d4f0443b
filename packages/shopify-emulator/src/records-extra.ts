import type { ContractLineRecord, ContractRecord, ContractStatus, DeliveryMethodRecord } from './records.ts'

/**
 * State that only mutations create. It hangs off `ShopState.extra`, created on first use, so
 * generated shops and state files written before mutations existed stay valid unchanged.
 */
export type DiscountRecord = {
  id: number
  title: string
  /** Set while the discount is a code applied to a draft; commit turns it into a manual discount. */
  redeemCode: string | null
  type: 'MANUAL' | 'CODE_DISCOUNT'
  targetType: 'LINE_ITEM' | 'SHIPPING_LINE'
  value: { percentage: number } | { amount: number; appliesOnEachItem: boolean }
  recurringCycleLimit: number | null
  usageCount: number
}

export type DraftRecord = {
  id: number
  contractId: number
  committed: boolean
  /** Contract revision the draft was taken from. */
  baseRevision: number
  status: ContractStatus
  nextBillingDate: number | null
  note: string | null
  currencyCode: string
  customerId: number
  paymentMethodId: number | null
  billingPolicy: ContractRecord['billingPolicy']
  deliveryPolicy: ContractRecord['deliveryPolicy']
  deliveryPrice: number
  deliveryMethod: DeliveryMethodRecord | null
  customAttributes: ContractRecord['customAttributes']
  lines: ContractLineRecord[]
  discounts: DiscountRecord[]
}

/** A code merchants can redeem on drafts (seeded per shop: WELCOME10, TEIKI500). */
export type DiscountCodeRecord = { code: string; title: string; value: DiscountRecord['value'] }

export type WebhookSubscriptionRecord = {
  id: number
  /** REST-style topic, `subscription_contracts/update`. */
  topic: string
  callbackUrl: string
  format: 'JSON' | 'XML'
  includeFields: string[]
  filter: string | null
  createdAt: number
  updatedAt: number
}

export type ScriptTagRecord = {
  id: number
  src: string
  displayScope: 'ALL' | 'ORDER_STATUS' | 'ONLINE_STORE'
  cache: boolean
  /** The client id of the app that created it: script tags belong to their app. */
  apiKey: string
  createdAt: number
  updatedAt: number
}

export type ThemeFileRecord = { filename: string; content: string; createdAt: number; updatedAt: number }

export type ThemeRecord = {
  id: number
  name: string
  role: 'MAIN' | 'UNPUBLISHED' | 'DEVELOPMENT'
  createdAt: number
  updatedAt: number
  files: ThemeFileRecord[]
}

export type BulkOperationRecord = {
  id: number
  query: string
  type: 'QUERY'
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED'
  createdAt: number
  completedAt: number | null
  objectCount: number
  rootObjectCount: number
  fileSize: number | null
  url: string | null
  errorCode: string | null
}

export type SentEmailRecord = { paymentMethodId: number; customerId: number; to: string | null; at: number }

/** A metafield owned by the app's installation (app-data metafield): `app.metafields` in Liquid. */
export type AppMetafieldRecord = {
  id: number
  namespace: string
  key: string
  type: string
  value: string
  createdAt: number
  updatedAt: number
}

/** A place the shop ships from (`Location`); every shop has one, its warehouse. */
export type LocationRecord = { id: number; name: string; isActive: boolean }

/** A shipping rate of a zone: a method with a flat price (`DeliveryRateDefinition`). */
export type ShippingMethodRecord = {
  id: number
  name: string
  description: string | null
  active: boolean
  rate: { id: number; amount: number; currencyCode: string }
}

export type DeliveryZoneRecord = {
  id: number
  name: string
  countries: Array<{
    id: number
    code: string | null
    restOfWorld: boolean
    provinces: Array<{ id: number; code: string }>
  }>
  methods: ShippingMethodRecord[]
}

/** Locations that ship to the same zones at the same rates within a profile. */
export type DeliveryLocationGroupRecord = { id: number; locationIds: number[]; zones: DeliveryZoneRecord[] }

/**
 * A delivery profile: shipping rates for the variants and selling plan groups it holds. The
 * default (general) profile holds everything else; a selling plan group is in at most one
 * custom profile, whose rates apply to what is bought with the group's plans.
 */
export type DeliveryProfileRecord = {
  id: number
  name: string
  default: boolean
  sellingPlanGroupIds: number[]
  variantIds: number[]
  locationGroups: DeliveryLocationGroupRecord[]
}

/** The app's web pixel on the shop (one per app per shop): its settings as validated. */
export type WebPixelRecord = {
  id: number
  settings: Record<string, unknown>
  createdAt: number
  updatedAt: number
}

/**
 * A cart and checkout validation the app activated (`validationCreate`): the function it runs,
 * whether it is live, and its metafields (the app's settings for the function, read by its input).
 */
export type ValidationRecord = {
  id: number
  functionId: string
  title: string
  enabled: boolean
  blockOnFailure: boolean
  metafields: AppMetafieldRecord[]
  createdAt: number
  updatedAt: number
}

export type ShopExtra = {
  drafts: DraftRecord[]
  discountCodes: DiscountCodeRecord[]
  webhookSubscriptions: WebhookSubscriptionRecord[]
  scriptTags: ScriptTagRecord[]
  themes: ThemeRecord[]
  bulkOperations: BulkOperationRecord[]
  sentEmails: SentEmailRecord[]
  /** Absent on state saved before app-data metafields existed: read as none. */
  appMetafields?: AppMetafieldRecord[]
  /** Absent in state saved before delivery profiles existed: see delivery-profiles.ts. */
  locations?: LocationRecord[]
  deliveryProfiles?: DeliveryProfileRecord[]
  /** The app's web pixel (webPixelCreate); absent or null: none. */
  webPixel?: WebPixelRecord | null
  /** Cart and checkout validations (validationCreate); absent: none. */
  validations?: ValidationRecord[]
}

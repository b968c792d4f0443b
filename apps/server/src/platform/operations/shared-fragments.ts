// Small fragments the record fragments are built from (see fragments.ts for how documents use
// them), each with the type of what the platform answers for it.

/** An amount with its currency, as every money field is read. */
export const MONEY_FIELDS = /* GraphQL */ `
  fragment MoneyFields on MoneyV2 { amount currencyCode }
`

export type PlatformMoney = { amount: string; currencyCode: string }

/** Where in the week, month or year a contract's or a plan's billings and deliveries fall. */
export const ANCHOR_FIELDS = /* GraphQL */ `
  fragment AnchorFields on SellingPlanAnchor { day month type cutoffDay }
`

export type PlatformAnchor = {
  day: number | null
  month: number | null
  type: string
  cutoffDay: number | null
}

/**
 * A price adjustment's value, in a selling plan's pricing policies and in a contract line's cycle
 * discounts (the same union): a percentage off, or an amount (off, or the price itself).
 */
export const PRICING_VALUE = /* GraphQL */ `
  fragment PricingValue on SellingPlanPricingPolicyAdjustmentValue {
    __typename
    ... on SellingPlanPricingPolicyPercentageValue { percentage }
    ... on MoneyV2 { ...MoneyFields }
  }
`

export type PlatformAdjustmentValue =
  | { __typename: 'SellingPlanPricingPolicyPercentageValue'; percentage: number }
  | ({ __typename: 'MoneyV2' } & PlatformMoney)

/** A contract's shipping or local delivery address. */
export const DELIVERY_ADDRESS_FIELDS = /* GraphQL */ `
  fragment DeliveryAddressFields on SubscriptionMailingAddress {
    address1 address2 city province provinceCode zip countryCode firstName lastName phone
  }
`

export type PlatformDeliveryAddress = {
  address1: string | null
  address2: string | null
  city: string | null
  province: string | null
  provinceCode: string | null
  zip: string | null
  countryCode: string | null
  firstName: string | null
  lastName: string | null
  phone: string | null
}

/** A payment instrument as the contract detail and the payment method picker show it. */
export const PAYMENT_INSTRUMENT_FIELDS = /* GraphQL */ `
  fragment PaymentInstrumentFields on CustomerPaymentInstrument {
    __typename
    ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear isRevocable }
    ... on CustomerPaypalBillingAgreement { paypalAccountEmail }
    ... on CustomerShopPayAgreement { name }
  }
`

export type PlatformPaymentInstrument =
  | {
      __typename: 'CustomerCreditCard'
      brand: string
      lastDigits: string
      expiryMonth: number
      expiryYear: number
      isRevocable: boolean
    }
  | { __typename: 'CustomerPaypalBillingAgreement'; paypalAccountEmail: string | null }
  | { __typename: 'CustomerShopPayAgreement'; name: string }
  | null

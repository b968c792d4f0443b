import type { Anchor, ContractRecord, DeliveryMethodRecord } from '../records.ts'
import { type UserError, userError } from './common.ts'

/** Decimal arguments arrive as the client wrote them ("1980.0" or 1980); NaN when not a number. */
export const parseDecimal = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN

export type AnchorInput = {
  type?: Anchor['type'] | null
  day?: number | null
  month?: number | null
  cutoffDay?: number | null
}

export const toAnchors = (anchors: AnchorInput[] | null | undefined): Anchor[] =>
  (anchors ?? []).map((a) => ({
    type: a.type ?? 'MONTHDAY',
    day: a.day ?? 1,
    month: a.month ?? null,
    cutoffDay: a.cutoffDay ?? null,
  }))

type PolicyInput = {
  interval: ContractRecord['billingPolicy']['interval']
  intervalCount: number
  minCycles?: number | null
  maxCycles?: number | null
  anchors?: AnchorInput[] | null
}

/** SubscriptionBillingPolicyInput -> record, or the errors that make it invalid. */
export function billingPolicyFrom(
  input: PolicyInput,
  field: string[],
): ContractRecord['billingPolicy'] | UserError[] {
  const errors: UserError[] = []
  if (input.intervalCount < 1)
    errors.push(
      userError([...field, 'intervalCount'], 'Interval count must be greater than 0', 'GREATER_THAN'),
    )
  const min = input.minCycles ?? null
  const max = input.maxCycles ?? null
  if (min !== null && max !== null && max < min) {
    errors.push(
      userError(
        [...field, 'maxCycles'],
        'Max cycles must be greater than min cycles',
        'SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES',
      ),
    )
  }
  if (errors.length > 0) return errors
  return {
    interval: input.interval,
    intervalCount: input.intervalCount,
    minCycles: min,
    maxCycles: max,
    anchors: toAnchors(input.anchors),
  }
}

export function deliveryPolicyFrom(
  input: PolicyInput,
  field: string[],
): ContractRecord['deliveryPolicy'] | UserError[] {
  if (input.intervalCount < 1)
    return [userError([...field, 'intervalCount'], 'Interval count must be greater than 0', 'GREATER_THAN')]
  return { interval: input.interval, intervalCount: input.intervalCount, anchors: toAnchors(input.anchors) }
}

export type AddressInput = Partial<
  Record<
    | 'address1'
    | 'address2'
    | 'city'
    | 'company'
    | 'countryCode'
    | 'firstName'
    | 'lastName'
    | 'phone'
    | 'provinceCode'
    | 'zip',
    string | null
  >
>

export type DeliveryMethodInput = {
  shipping?: {
    address?: AddressInput | null
    shippingOption?: {
      title?: string | null
      presentmentTitle?: string | null
      description?: string | null
      code?: string | null
    } | null
  } | null
}

/** Shipping input over the current method: fields the input leaves out keep their value. */
export function deliveryMethodFrom(
  input: DeliveryMethodInput,
  current: DeliveryMethodRecord | null,
): DeliveryMethodRecord | UserError[] {
  const shipping = input.shipping
  if (!shipping)
    return [
      userError(
        ['input', 'deliveryMethod'],
        'Only shipping delivery is supported',
        'DELIVERY_METHOD_REQUIRED',
      ),
    ]
  // A local delivery's address carries over too; a pickup has none.
  const base = current && 'address' in current ? current.address : undefined
  const a = shipping.address ?? {}
  const pick = (k: keyof AddressInput, fallback: string | null) => (a[k] === undefined ? fallback : a[k])
  const firstName = pick('firstName', base?.firstName ?? '') ?? ''
  const lastName = pick('lastName', base?.lastName ?? '') ?? ''
  const countryCode = pick('countryCode', base?.countryCode ?? 'JP') ?? 'JP'
  const address1 = pick('address1', base?.address1 ?? '') ?? ''
  if (address1.trim() === '')
    return [
      userError(['input', 'deliveryMethod', 'shipping', 'address', 'address1'], 'Address1 is blank', 'BLANK'),
    ]
  const option = shipping.shippingOption
  return {
    __typename: 'SubscriptionDeliveryMethodShipping',
    address: {
      address1,
      address2: pick('address2', base?.address2 ?? null),
      city: pick('city', base?.city ?? '') ?? '',
      company: pick('company', base?.company ?? null),
      country: countryCode === base?.countryCode ? base.country : countryCode,
      countryCode,
      firstName,
      lastName,
      // Japanese order: family name first, as the generated shops write it.
      name: `${lastName} ${firstName}`.trim(),
      phone: pick('phone', base?.phone ?? null),
      province: a.provinceCode === undefined ? (base?.province ?? '') : (a.provinceCode ?? ''),
      provinceCode: pick('provinceCode', base?.provinceCode ?? '') ?? '',
      zip: pick('zip', base?.zip ?? '') ?? '',
    },
    shippingOption: option
      ? {
          title: option.title ?? '',
          presentmentTitle: option.presentmentTitle ?? option.title ?? '',
          description: option.description ?? null,
          code: option.code ?? '',
        }
      : current?.__typename === 'SubscriptionDeliveryMethodShipping'
        ? current.shippingOption
        : {
            title: '通常配送',
            presentmentTitle: '通常配送',
            description: null,
            code: 'STANDARD',
          },
  }
}

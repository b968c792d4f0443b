import type { CustomerRecord, MailingAddressRecord, PaymentMethodRecord, ShopState } from '../records.ts'
import { nextId } from '../store.ts'
import { buildings, prefectures, prefectureWeights, towns } from './addresses.ts'
import { familyNames, givenNames } from './names.ts'
import type { Rng } from './prng.ts'

const cardBrands = ['visa', 'master', 'jcb', 'american_express'] as const
const brandWeights = [45, 30, 20, 5]

const phone = (rng: Rng) => `+81${rng.pick(['90', '80', '70'])}${rng.digits(8)}`

function address(
  rng: Rng,
  shop: ShopState,
  firstName: string,
  lastName: string,
  tel: string,
): MailingAddressRecord {
  const pref = rng.weighted(prefectures, prefectureWeights)
  return {
    id: nextId(shop, 'MailingAddress'),
    firstName,
    lastName,
    name: `${lastName} ${firstName}`,
    company: null,
    address1: `${rng.pick(towns)}${rng.int(1, 5)}-${rng.int(1, 30)}-${rng.int(1, 20)}`,
    address2: rng.chance(0.4) ? `${rng.pick(buildings)}${rng.int(1, 12)}0${rng.int(1, 9)}` : null,
    city: rng.pick(pref.cities),
    province: pref.name,
    provinceCode: pref.code,
    zip: `${pref.zip}${rng.digits(2)}-${rng.digits(4)}`,
    country: 'Japan',
    countryCodeV2: 'JP',
    phone: tel,
  }
}

function email(rng: Rng, given: string, family: string, n: number): string {
  // The running number keeps addresses unique across 100,000 customers.
  const local = rng.weighted(
    [`${given}.${family}${n}`, `${family}.${given}${n}`, `${given}${family}${n}`, `${given[0]}${family}${n}`],
    [4, 2, 2, 1],
  )
  return `${local}@${rng.chance(0.7) ? 'example.jp' : 'example.com'}`
}

function instrument(
  rng: Rng,
  given: string,
  family: string,
  mail: string,
  now: Date,
): PaymentMethodRecord['instrument'] {
  if (rng.chance(0.03)) {
    return {
      __typename: 'CustomerPaypalBillingAgreement',
      inactive: false,
      isRevocable: true,
      paypalAccountEmail: mail,
    }
  }
  const brand = rng.weighted(cardBrands, brandWeights)
  const lastDigits = brand === 'american_express' ? rng.digits(4) : rng.digits(4)
  const year = now.getUTCFullYear()
  // A few cards have already expired: those contracts are the ones dunning should catch.
  const expiryYear = rng.chance(0.05) ? year - rng.int(0, 1) : year + rng.int(0, 5)
  const expiryMonth = expiryYear === year ? rng.int(1, 12) : rng.int(1, 12)
  const monthsLeft = (expiryYear - year) * 12 + (expiryMonth - 1 - now.getUTCMonth())
  return {
    __typename: 'CustomerCreditCard',
    brand,
    lastDigits,
    expiryMonth,
    expiryYear,
    expiresSoon: monthsLeft >= 0 && monthsLeft < 2,
    isRevocable: true,
    name: `${given.toUpperCase()} ${family.toUpperCase()}`,
    maskedNumber: `•••• •••• •••• ${lastDigits}`,
  }
}

/** Creates `count` customers (with one payment method each) created at the given sorted times. */
export function generateCustomers(rng: Rng, shop: ShopState, times: readonly number[], now: Date): void {
  for (let i = 0; i < times.length; i++) {
    const [familyName, familyRomaji] = rng.pick(familyNames)
    const [givenName, givenRomaji] = rng.pick(givenNames)
    const tel = phone(rng)
    const mail = email(rng, givenRomaji, familyRomaji, i + 1)
    const createdAt = times[i]!
    const customer: CustomerRecord = {
      id: nextId(shop, 'Customer'),
      firstName: givenName,
      lastName: familyName,
      // Japanese order: family name first, separated by a space.
      displayName: `${familyName} ${givenName}`,
      email: mail,
      phone: rng.chance(0.9) ? tel : null,
      note: null,
      state: 'ENABLED',
      verifiedEmail: true,
      createdAt,
      updatedAt: createdAt,
      numberOfOrders: 0,
      tags: [],
      defaultAddress: address(rng, shop, givenName, familyName, tel),
    }
    shop.customers.push(customer)
    shop.paymentMethods.push({
      id: nextId(shop, 'CustomerPaymentMethod'),
      customerId: customer.id,
      instrument: instrument(rng, givenRomaji, familyRomaji, mail, now),
      revokedAt: null,
      revokedReason: null,
    })
  }
}

/**
 * A second card for some customers, so the demo's 支払い方法 → 編集 has a choice: the customer
 * of the newest active contract (the first 有効 row of the list) and every tenth customer with
 * a card. Added after everything else, with its own random stream, so the rest of the demo
 * shop (ids, names, dates) stays what it was.
 */
export function addSecondCards(rng: Rng, shop: ShopState, now: Date): void {
  const newestActive = shop.contracts.filter((c) => c.status === 'ACTIVE').at(-1)
  const chosen = new Set<number>(newestActive ? [newestActive.customerId] : [])
  shop.customers.forEach((customer, index) => {
    if (index % 10 === 9) chosen.add(customer.id)
  })
  const year = now.getUTCFullYear()
  for (const customer of shop.customers) {
    if (!chosen.has(customer.id)) continue
    const first = shop.paymentMethods.find((pm) => pm.customerId === customer.id)?.instrument
    if (first?.__typename !== 'CustomerCreditCard') continue
    const brand = rng.pick(cardBrands.filter((b) => b !== first.brand && b !== 'american_express'))
    const lastDigits = rng.digits(4)
    shop.paymentMethods.push({
      id: nextId(shop, 'CustomerPaymentMethod'),
      customerId: customer.id,
      instrument: {
        __typename: 'CustomerCreditCard',
        brand,
        lastDigits,
        // Valid for years: the card to switch to when the first one fails or expires.
        expiryMonth: rng.int(1, 12),
        expiryYear: year + rng.int(1, 4),
        expiresSoon: false,
        isRevocable: true,
        name: first.name,
        maskedNumber: `•••• •••• •••• ${lastDigits}`,
      },
      revokedAt: null,
      revokedReason: null,
    })
  }
}

/**
 * Cards whose issuer asks for 3-D Secure on every recurring charge (mandatory for online card
 * payments in Japan since the end of March 2025): every twelfth customer's first card, so the
 * demo shop's billing shows challenged charges (本人認証待ち). The customer of the newest active
 * contract keeps a card that charges at once (the README walks through that contract).
 * Deterministic, with no random draw, so the rest of the shop stays what it was.
 */
export function addAuthenticationCards(shop: ShopState): void {
  const newestActive = shop.contracts.filter((c) => c.status === 'ACTIVE').at(-1)
  shop.customers.forEach((customer, index) => {
    if (index % 12 !== 4 || customer.id === newestActive?.customerId) return
    const card = shop.paymentMethods.find(
      (pm) => pm.customerId === customer.id && pm.instrument.__typename === 'CustomerCreditCard',
    )
    if (card) card.requiresAuthentication = true
  })
}

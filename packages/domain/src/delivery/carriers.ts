import type { DeliveryTimeSlot } from '../subscriptions/delivery.ts'

/**
 * The carriers a shop ships with and the time slots each offers, with the code the carrier's
 * own shipping software reads in its CSV (送り状発行): Yamato's B2クラウド, Sagawa's e飛伝,
 * Japan Post's ゆうプリR. A slot is stored on the contract by its window (`DeliveryTimeSlot`,
 * the same for every carrier, so a shop that changes carrier keeps its subscribers' choices);
 * the code is what goes on the order for the warehouse. Sources: docs/delivery-rules.md.
 */
export type CarrierKey = 'yamato' | 'sagawa' | 'japanpost'

export type CarrierSlot = { slot: Exclude<DeliveryTimeSlot, 'NONE'>; code: string }

export type Carrier = { key: CarrierKey; name: string; slots: readonly CarrierSlot[] }

export const CARRIERS: Readonly<Record<CarrierKey, Carrier>> = {
  // 2017-06: Yamato dropped 12-14 and 20-21 and added 19-21.
  yamato: {
    key: 'yamato',
    name: 'ヤマト運輸',
    slots: [
      { slot: 'AM', code: '0812' },
      { slot: '14-16', code: '1416' },
      { slot: '16-18', code: '1618' },
      { slot: '18-20', code: '1820' },
      { slot: '19-21', code: '1921' },
    ],
  },
  sagawa: {
    key: 'sagawa',
    name: '佐川急便',
    slots: [
      { slot: 'AM', code: '01' },
      { slot: '12-14', code: '12' },
      { slot: '14-16', code: '14' },
      { slot: '16-18', code: '16' },
      { slot: '18-20', code: '18' },
      { slot: '19-21', code: '19' },
    ],
  },
  // 2024-10: Japan Post dropped 20-21 (19-21 remains).
  japanpost: {
    key: 'japanpost',
    name: '日本郵便（ゆうパック）',
    slots: [
      { slot: 'AM', code: '51' },
      { slot: '12-14', code: '52' },
      { slot: '14-16', code: '53' },
      { slot: '16-18', code: '54' },
      { slot: '18-20', code: '55' },
      { slot: '19-21', code: '57' },
    ],
  },
}

export const CARRIER_KEYS = Object.keys(CARRIERS) as CarrierKey[]

export function isCarrierKey(value: unknown): value is CarrierKey {
  return typeof value === 'string' && Object.hasOwn(CARRIERS, value)
}

/** The carrier's code for a slot, or null when it does not offer it (or no slot was chosen). */
export function slotCode(carrier: CarrierKey, slot: DeliveryTimeSlot | null): string | null {
  if (!slot || slot === 'NONE') return null
  return CARRIERS[carrier].slots.find((s) => s.slot === slot)?.code ?? null
}

/** Whether the shop's carrier delivers in that slot (指定なし always). */
export function carrierOffers(carrier: CarrierKey, slot: DeliveryTimeSlot): boolean {
  return slot === 'NONE' || slotCode(carrier, slot) !== null
}

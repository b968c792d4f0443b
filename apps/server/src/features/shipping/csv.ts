import type { ShippingCsvQuery } from '@teiki/contract'
import {
  deliveryTimeSlot,
  type ForecastOrder,
  formatPhoneJa,
  prefectureCode,
  prefectureName,
  shipSkus,
  slotCode,
  upcomingOrders,
} from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { createCsvEncoder, csvLine, csvText } from '../exports/csv.ts'

/** A record whose every field may hold merchant or customer text (quoted, formula-safe). */
const record = (fields: readonly string[]) => `${fields.map(csvText).join(',')}\r\n`

import { type OrderDetailRow, orderDetails, streamContractSchedules } from './repo.ts'
import { type ForecastContext, forecastContext, slotCodeOf } from './service.ts'

/**
 * The forecast as a file a warehouse loads: one row per coming order, sorted by お届け予定日.
 * Two passes keep memory flat on a 100,000-contract shop: the schedules stream in and become
 * (date, contract, cycle) entries; then the entries' contracts are read 500 at a time for the
 * name, address and lines, and written. Layouts: the app's own (`standard`) and ヤマト運輸
 * B2クラウド's import layout (`yamato-b2`, ADR 0040).
 */

type Entry = { id: string; order: ForecastOrder }

const CHUNK = 500

export const STANDARD_HEADER = [
  'お届け予定日',
  '請求予定日',
  '配送時間帯',
  '配送時間帯コード',
  '定期回数',
  '契約ID',
  'お届け先氏名',
  '郵便番号',
  '住所',
  '電話番号',
  '出荷SKU',
  '商品',
]

// B2クラウド 送り状発行データ 基本レイアウトの1〜33列 (ADR 0040 names the source).
export const YAMATO_B2_HEADER = [
  'お客様管理番号',
  '送り状種類',
  'クール区分',
  '伝票番号',
  '出荷予定日',
  'お届け予定日',
  '配達時間帯',
  'お届け先コード',
  'お届け先電話番号',
  'お届け先電話番号枝番',
  'お届け先郵便番号',
  'お届け先住所',
  'お届け先アパートマンション名',
  'お届け先会社・部門１',
  'お届け先会社・部門２',
  'お届け先名',
  'お届け先名(ｶﾅ)',
  '敬称',
  'ご依頼主コード',
  'ご依頼主電話番号',
  'ご依頼主電話番号枝番',
  'ご依頼主郵便番号',
  'ご依頼主住所',
  'ご依頼主アパートマンション',
  'ご依頼主名',
  'ご依頼主名(ｶﾅ)',
  '品名コード１',
  '品名１',
  '品名コード２',
  '品名２',
  '荷扱い１',
  '荷扱い２',
  '記事',
]

const slash = (date: string) => date.replaceAll('-', '/')

/** 〒 form of a Japanese postal code (1234567 → 123-4567); others as they are. */
function zipJa(zip: string | null | undefined): string {
  const digits = (zip ?? '').replace(/[^\d]/g, '')
  return digits.length === 7 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : (zip ?? '')
}

type Address = NonNullable<OrderDetailRow['address']>

/** 都道府県 市区町村 番地 (the Japanese order), without the building line. */
function streetJa(a: Address): string {
  const code = prefectureCode(a.provinceCode ?? a.province)
  const pref = code ? prefectureName(code) : (a.province ?? '')
  return [pref, a.city, a.address1].filter(Boolean).join('')
}

function nameJa(row: OrderDetailRow): string {
  const a = row.address
  const name = [a?.lastName, a?.firstName].filter(Boolean).join(' ')
  return name || row.customer_name
}

const cut = (text: string, n: number) => (text.length > n ? text.slice(0, n) : text)

function standardRecord(ctx: ForecastContext, e: Entry, row: OrderDetailRow): string {
  const a = row.address ?? {}
  const lines = row.lines ?? []
  const slot = row.slot || '指定なし'
  return record([
    slash(e.order.deliveryDate),
    slash(e.order.billingDate),
    slot,
    slotCodeOf(ctx.delivery, slot),
    e.order.cycle === null ? '' : String(e.order.cycle),
    e.id,
    nameJa(row),
    zipJa(a.zip),
    [streetJa(a), a.address2].filter(Boolean).join(' '),
    a.phone ? formatPhoneJa(a.phone) : '',
    shipSkus(lines, ctx.skuConversions, e.order.cycle ?? 0),
    lines.map((l) => `${l.title}×${l.quantity}`).join('、'),
  ])
}

function yamatoRecord(ctx: ForecastContext, shopName: string, e: Entry, row: OrderDetailRow): string {
  const a = row.address ?? {}
  const lines = row.lines ?? []
  const skus = shipSkus(lines, ctx.skuConversions, e.order.cycle ?? 0)
  const first = lines[0]
  const second = lines[1]
  const note = `定期${e.order.cycle ?? ''}回目 ${skus}`
  return record([
    cut(`${e.id}-${e.order.cycle ?? 0}`, 20),
    '0',
    '0',
    '',
    slash(e.order.billingDate),
    slash(e.order.deliveryDate),
    slotCode('yamato', deliveryTimeSlot(row.slot)) ?? '',
    '',
    a.phone ? formatPhoneJa(a.phone) : '',
    '',
    zipJa(a.zip),
    streetJa(a),
    a.address2 ?? '',
    '',
    '',
    nameJa(row),
    '',
    '様',
    '',
    '',
    '',
    '',
    '',
    '',
    shopName,
    '',
    first?.sku ?? '',
    cut(first?.title ?? '', 25),
    second?.sku ?? '',
    cut(second?.title ?? '', 25),
    '',
    '',
    cut(note, 22),
  ])
}

/** The coming orders of every ACTIVE contract in the window, sorted by delivery day then contract. */
async function forecastEntries(db: Db, shop: ShopRow, ctx: ForecastContext): Promise<Entry[]> {
  const entries: Entry[] = []
  const memo = new Map<string, ForecastOrder[]>()
  await streamContractSchedules(
    db,
    { shopId: shop.id, timeZone: ctx.window.timeZone, until: ctx.until },
    (id, schedule) => {
      const key = JSON.stringify(schedule)
      let orders = memo.get(key)
      if (!orders) {
        orders = upcomingOrders(schedule, ctx.window)
        memo.set(key, orders)
      }
      for (const order of orders) entries.push({ id, order })
    },
  )
  return entries.sort(
    (x, y) =>
      (x.order.deliveryDate < y.order.deliveryDate
        ? -1
        : x.order.deliveryDate > y.order.deliveryDate
          ? 1
          : 0) ||
      x.id.length - y.id.length ||
      (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  )
}

/** The CSV's bytes, chunk by chunk (a BOM first for UTF-8): the route streams them. */
export async function* shippingCsv(
  db: Db,
  shop: ShopRow,
  query: ShippingCsvQuery,
  now = new Date(),
): AsyncGenerator<Buffer> {
  const ctx = await forecastContext(db, shop, query.days, now)
  const entries = await forecastEntries(db, shop, ctx)
  const encoder = createCsvEncoder(query.encoding)
  if (encoder.preamble.length > 0) yield encoder.preamble
  const yamato = query.layout === 'yamato-b2'
  yield encoder.encode(csvLine(yamato ? YAMATO_B2_HEADER : STANDARD_HEADER))
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK)
    const rows = new Map(
      (await orderDetails(db, shop.id, [...new Set(chunk.map((e) => e.id))])).map((r) => [r.id, r]),
    )
    let text = ''
    for (const e of chunk) {
      const row = rows.get(e.id)
      if (!row) continue // ended or deleted between the passes
      text += yamato ? yamatoRecord(ctx, shop.name, e, row) : standardRecord(ctx, e, row)
    }
    yield encoder.encode(text)
  }
}

/** The file's name: 出荷予定_2026-11-28_31日.csv (B2: ヤマトB2_…). */
export function shippingCsvName(from: string, query: ShippingCsvQuery): string {
  return `${query.layout === 'yamato-b2' ? 'ヤマトB2' : '出荷予定'}_${from}_${query.days}日.csv`
}

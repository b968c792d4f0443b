import { Readable } from 'node:stream'
import type { ExportEncoding, LtvList } from '@teiki/contract'
import { ltvRangeParts, multiCurrencyMessage, zonedDayRange } from '@teiki/domain'
import { type Db, withTransaction } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { amountText, createCsvEncoder, csvLine, csvText } from '../exports/csv.ts'
import { type LtvRange, ltvPage, ltvRows } from './ltv-repo.ts'
import { NAMELESS } from './segments-service.ts'

export const LTV_FILE_NAME = 'cdpLtv.csv'
export const LTV_CSV_HEADER = [
  '順位',
  '顧客ID',
  '顧客名',
  'メールアドレス',
  '購入回数',
  'LTV',
  '通貨',
] as const

/**
 * The range (calendar days in the shop's zone, both inclusive) as the LTV statement reads it:
 * its whole months from the monthly running totals, its edge days as instants.
 */
function rangeOf(shop: ShopRow, startDate: string, endDate: string): LtvRange {
  zonedDayRange(startDate, endDate, shop.iana_timezone) // refuses a reversed or impossible range
  const { months, edges } = ltvRangeParts(startDate, endDate)
  return {
    firstMonth: months?.first ?? null,
    lastMonth: months?.last ?? null,
    edges: edges.map((e) => {
      const { start, endExclusive } = zonedDayRange(e.from, e.to, shop.iana_timezone)
      return { start: start!, end: endExclusive! }
    }),
  }
}

export function createLtvService(deps: { db: Db }) {
  const { db } = deps
  return {
    async list(
      shop: ShopRow,
      q: { startDate: string; endDate: string; offset: number; count: number },
    ): Promise<LtvList> {
      const page = await withTransaction(db, (tx) =>
        ltvPage(tx, {
          shopId: shop.id,
          range: rangeOf(shop, q.startDate, q.endDate),
          currency: shop.currency_code,
          offset: q.offset,
          limit: q.count,
        }),
      )
      return {
        list: page.list.map((r) => ({
          customerId: r.customerId,
          displayName: r.displayName || NAMELESS,
          email: r.email,
          currencyCode: r.currencyCode,
          ltv: Number(r.amount),
          orderCount: r.orderCount,
        })),
        maxLtv: page.max_ltv === null ? 0 : Number(page.max_ltv),
        currencyCode: shop.currency_code,
        errors: page.errors.map((e) => ({
          customerId: e.customerId,
          displayName: e.displayName || NAMELESS,
          currencyCodes: e.codes,
          message: multiCurrencyMessage(e.codes),
        })),
        total: page.total,
        hasNext: q.offset + page.list.length < page.total,
      }
    },

    /**
     * The whole table as CSV (UTF-8 with BOM or Shift_JIS, as the contract export), streamed:
     * a cursor hands 2,000 rows at a time and the next batch is read only when the response
     * has taken the last one, so memory stays flat however many customers the shop has.
     */
    async csv(
      shop: ShopRow,
      q: { startDate: string; endDate: string; encoding: ExportEncoding },
    ): Promise<Readable> {
      const range = rangeOf(shop, q.startDate, q.endDate)
      const encoder = createCsvEncoder(q.encoding)
      const client = await db.connect()
      async function* bytes() {
        try {
          yield Buffer.concat([encoder.preamble, encoder.encode(csvLine(LTV_CSV_HEADER))])
          let rank = 0
          for await (const rows of ltvRows(client, {
            shopId: shop.id,
            range,
            currency: shop.currency_code,
          })) {
            let text = ''
            for (const r of rows) {
              rank += 1
              text += `${rank},${r.customer_id},${csvText(r.display_name || NAMELESS)},${csvText(r.email)},${r.n},${amountText(r.amount, r.currency_code)},${r.currency_code}\r\n`
            }
            yield encoder.encode(text)
          }
        } finally {
          client.release()
        }
      }
      return Readable.from(bytes(), { objectMode: false })
    },
  }
}

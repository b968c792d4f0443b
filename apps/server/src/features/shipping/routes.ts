import { Readable } from 'node:stream'
import { toZonedDate } from '@teiki/domain'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { contentDisposition } from '../exports/routes.ts'
import { shippingCsv, shippingCsvName } from './csv.ts'
import { getShippingForecast } from './service.ts'

/** 出荷予定 (issue 25): the coming deliveries per day, and the same orders as a CSV. */
export function shippingRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['shipping'] })

  route('GET /shipping-forecast', '出荷予定（7・14・31日分、日ごとの件数・SKU・時間帯・都道府県）', {
    errors: [400],
    handler: (request) => getShippingForecast(app.db, request.shop, request.query.days),
  })

  route('GET /shipping-forecast/csv', '出荷予定のCSV（1注文1行、UTF-8 BOM付きかShift_JIS、標準かヤマトB2）', {
    errors: [400],
    handler: async (request, reply) => {
      const from = toZonedDate(new Date(), request.shop.iana_timezone)
      const contentType =
        request.query.encoding === 'utf-8' ? 'text/csv; charset=utf-8' : 'text/csv; charset=Shift_JIS'
      return reply
        .header('Content-Type', contentType)
        .header('Content-Disposition', contentDisposition(shippingCsvName(from, request.query)))
        .header('Cache-Control', 'private, no-store')
        .send(Readable.from(shippingCsv(app.db, request.shop, request.query)))
    },
  })
}

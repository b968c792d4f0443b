import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { csvContentType } from '../exports/csv.ts'
import { createLtvService, LTV_FILE_NAME } from './ltv-service.ts'

/** Lifetime value (spec §7 `/ltv/*`): the table and its CSV, both over a range of days. */
export function ltvRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['cdp'] })
  const ltv = createLtvService({ db: app.db })

  route('GET /ltv/cdp-customer-list', '顧客のLTV（期間内の定期購入の合計、高い順、通貨ごと）', {
    errors: [400],
    handler: (request) => ltv.list(request.shop, request.query),
  })

  route('GET /ltv/cdp-customer-list-export', 'LTVのCSV（cdpLtv.csv、UTF-8 BOM付きまたはShift_JIS）', {
    errors: [400],
    handler: async (request, reply) => {
      const stream = await ltv.csv(request.shop, request.query)
      return reply
        .header('Content-Type', csvContentType(request.query.encoding))
        .header('Content-Disposition', `attachment; filename="${LTV_FILE_NAME}"`)
        .header('Cache-Control', 'private, no-store')
        .send(stream)
    },
  })
}

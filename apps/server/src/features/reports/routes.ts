import type { AppInstance } from '../../http/app-instance.ts'
import { type TableRouter, tableRoutes } from '../../http/contract-route.ts'
import type { CountColumn } from './repo.ts'
import { createReportService } from './service.ts'

const COUNT_PATHS: Array<{ path: 'new-contract' | 'cancel' | 'pause'; measure: CountColumn; label: string }> =
  [
    { path: 'new-contract', measure: 'created', label: '新規契約数' },
    { path: 'cancel', measure: 'cancelled', label: '解約数' },
    { path: 'pause', measure: 'paused', label: '一時停止数' },
  ]

/** Spec §7 "Reports" and /subscriptions/persistence-rate (screens 分析 and 継続率). */
export function reportRoutes(app: AppInstance, opts: { now?: () => Date } = {}): void {
  const route = tableRoutes(app, { tags: ['reports'], errors: [400] })
  const reports = createReportService({ db: app.db, ...opts })

  for (const { path, measure, label } of COUNT_PATHS) {
    route(`GET /daily-report/${path}`, `日別の${label}`, {
      handler: (request) => reports.daily(request.shop, measure, request.query),
    })
    route(`GET /cumulative/${path}`, `${label}の累計（開始日からの日ごとの累計）`, {
      handler: (request) => reports.cumulative(request.shop, measure, request.query),
    })
  }
  route('GET /cumulative/failure', '決済失敗数の累計（開始日からの日ごとの累計）', {
    handler: (request) => reports.cumulative(request.shop, 'failed', request.query),
  })
  route('GET /daily-report/active-contract', '日ごとの有効な契約数（その日の終わり時点）', {
    handler: (request) => reports.active(request.shop, request.query),
  })
  route('GET /current/active-contract', '現在の有効な契約数', {
    handler: (request) => reports.current(request.shop),
  })
  salesRoutes(route, reports)
  route('GET /subscriptions/persistence-rate', '継続率（開始月ごと、1〜12回目の注文まで継続した割合）', {
    handler: (request) => reports.persistence(request.shop, request.query),
  })
}

function salesRoutes(route: TableRouter, reports: ReturnType<typeof createReportService>): void {
  route('GET /daily-report/subtotal', '日別の売上（通貨ごと。currency で1通貨に絞り込み）', {
    handler: (request) => reports.sales(request.shop, request.query, request.query.currency),
  })
  route('GET /daily-report/subtotal/currency', '期間中に売上のあった通貨', {
    handler: (request) => reports.currencies(request.shop, request.query),
  })
  route('GET /cumulative/subtotal', '売上の累計（通貨ごと、開始日からの日ごとの累計）', {
    handler: (request) => reports.cumulativeSales(request.shop, request.query, request.query.currency),
  })
  route('GET /cumulative/subtotal/currency', '累計期間中に売上のあった通貨', {
    handler: (request) => reports.currencies(request.shop, request.query),
  })
}

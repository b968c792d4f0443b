import {
  ZCurrencyList,
  ZCurrentCount,
  ZCurrentQuery,
  ZDailyCounts,
  ZPersistenceQuery,
  ZPersistenceRate,
  ZReportRangeQuery,
  ZSalesSeries,
  ZSubtotalQuery,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import type { CountColumn } from './repo.ts'
import { createReportService } from './service.ts'

const tags = ['reports']
const range = { querystring: ZReportRangeQuery, response: { 200: ZDailyCounts, ...errorAnswers(400) } }

const COUNT_PATHS: Array<{ path: string; measure: CountColumn; label: string }> = [
  { path: 'new-contract', measure: 'created', label: '新規契約数' },
  { path: 'cancel', measure: 'cancelled', label: '解約数' },
  { path: 'pause', measure: 'paused', label: '一時停止数' },
]

/** Spec §7 "Reports" and /subscriptions/persistence-rate (screens 分析 and 継続率). */
export function reportRoutes(app: AppInstance, opts: { now?: () => Date } = {}): void {
  const api = apiRoutes(app, tags)
  const reports = createReportService({ db: app.db, ...opts })

  for (const { path, measure, label } of COUNT_PATHS) {
    api.get(`/app-admin/daily-report/${path}`, `日別の${label}`, {
      ...range,
      handler: (request) => reports.daily(request.shop, measure, request.query),
    })
    api.get(`/app-admin/cumulative/${path}`, `${label}の累計（開始日からの日ごとの累計）`, {
      ...range,
      handler: (request) => reports.cumulative(request.shop, measure, request.query),
    })
  }
  api.get('/app-admin/cumulative/failure', '決済失敗数の累計（開始日からの日ごとの累計）', {
    ...range,
    handler: (request) => reports.cumulative(request.shop, 'failed', request.query),
  })
  api.get('/app-admin/daily-report/active-contract', '日ごとの有効な契約数（その日の終わり時点）', {
    ...range,
    handler: (request) => reports.active(request.shop, request.query),
  })
  api.get('/app-admin/current/active-contract', '現在の有効な契約数', {
    querystring: ZCurrentQuery,
    response: { 200: ZCurrentCount, ...errorAnswers(400) },
    handler: (request) => reports.current(request.shop),
  })
  salesRoutes(app, reports)
  api.get(
    '/app-admin/subscriptions/persistence-rate',
    '継続率（開始月ごと、1〜12回目の注文まで継続した割合）',
    {
      querystring: ZPersistenceQuery,
      response: { 200: ZPersistenceRate, ...errorAnswers(400) },
      handler: (request) => reports.persistence(request.shop, request.query),
    },
  )
}

function salesRoutes(app: AppInstance, reports: ReturnType<typeof createReportService>): void {
  const api = apiRoutes(app, tags)
  const sales = { querystring: ZSubtotalQuery, response: { 200: ZSalesSeries, ...errorAnswers(400) } }
  const list = { querystring: ZReportRangeQuery, response: { 200: ZCurrencyList, ...errorAnswers(400) } }
  api.get('/app-admin/daily-report/subtotal', '日別の売上（通貨ごと。currency で1通貨に絞り込み）', {
    ...sales,
    handler: (request) => reports.sales(request.shop, request.query, request.query.currency),
  })
  api.get('/app-admin/daily-report/subtotal/currency', '期間中に売上のあった通貨', {
    ...list,
    handler: (request) => reports.currencies(request.shop, request.query),
  })
  api.get('/app-admin/cumulative/subtotal', '売上の累計（通貨ごと、開始日からの日ごとの累計）', {
    ...sales,
    handler: (request) => reports.cumulativeSales(request.shop, request.query, request.query.currency),
  })
  api.get('/app-admin/cumulative/subtotal/currency', '累計期間中に売上のあった通貨', {
    ...list,
    handler: (request) => reports.currencies(request.shop, request.query),
  })
}

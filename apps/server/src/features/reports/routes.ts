import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import type { CountColumn } from './repo.ts'
import { createReportService } from './service.ts'

const tags = ['reports']
const errors = { 400: ZErrorResponse }

const COUNT_PATHS: Array<{ path: 'new-contract' | 'cancel' | 'pause'; measure: CountColumn; label: string }> =
  [
    { path: 'new-contract', measure: 'created', label: '新規契約数' },
    { path: 'cancel', measure: 'cancelled', label: '解約数' },
    { path: 'pause', measure: 'paused', label: '一時停止数' },
  ]

/** Spec §7 "Reports" and /subscriptions/persistence-rate (screens 分析 and 継続率). */
export function reportRoutes(app: AppInstance, opts: { now?: () => Date } = {}): void {
  const reports = createReportService({ db: app.db, ...opts })

  for (const { path, measure, label } of COUNT_PATHS) {
    app.route({
      ...tableRoute(`GET /daily-report/${path}`, { tags, summary: `日別の${label}`, errors }),
      handler: (request) => reports.daily(request.shop, measure, request.query),
    })
    app.route({
      ...tableRoute(`GET /cumulative/${path}`, {
        tags,
        summary: `${label}の累計（開始日からの日ごとの累計）`,
        errors,
      }),
      handler: (request) => reports.cumulative(request.shop, measure, request.query),
    })
  }
  app.route({
    ...tableRoute('GET /cumulative/failure', {
      tags,
      summary: '決済失敗数の累計（開始日からの日ごとの累計）',
      errors,
    }),
    handler: (request) => reports.cumulative(request.shop, 'failed', request.query),
  })
  app.route({
    ...tableRoute('GET /daily-report/active-contract', {
      tags,
      summary: '日ごとの有効な契約数（その日の終わり時点）',
      errors,
    }),
    handler: (request) => reports.active(request.shop, request.query),
  })
  app.route({
    ...tableRoute('GET /current/active-contract', {
      tags,
      summary: '現在の有効な契約数',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => reports.current(request.shop),
  })
  salesRoutes(app, reports)
  app.route({
    ...tableRoute('GET /subscriptions/persistence-rate', {
      tags,
      summary: '継続率（開始月ごと、1〜12回目の注文まで継続した割合）',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => reports.persistence(request.shop, request.query),
  })
}

function salesRoutes(app: AppInstance, reports: ReturnType<typeof createReportService>): void {
  app.route({
    ...tableRoute('GET /daily-report/subtotal', {
      tags,
      summary: '日別の売上（通貨ごと。currency で1通貨に絞り込み）',
      errors,
    }),
    handler: (request) => reports.sales(request.shop, request.query, request.query.currency),
  })
  app.route({
    ...tableRoute('GET /daily-report/subtotal/currency', {
      tags,
      summary: '期間中に売上のあった通貨',
      errors,
    }),
    handler: (request) => reports.currencies(request.shop, request.query),
  })
  app.route({
    ...tableRoute('GET /cumulative/subtotal', {
      tags,
      summary: '売上の累計（通貨ごと、開始日からの日ごとの累計）',
      errors,
    }),
    handler: (request) => reports.cumulativeSales(request.shop, request.query, request.query.currency),
  })
  app.route({
    ...tableRoute('GET /cumulative/subtotal/currency', {
      tags,
      summary: '累計期間中に売上のあった通貨',
      errors,
    }),
    handler: (request) => reports.currencies(request.shop, request.query),
  })
}

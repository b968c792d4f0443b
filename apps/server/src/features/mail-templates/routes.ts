import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { findShopMail, saveShopMail } from './repo.ts'
import {
  getMailTemplate,
  listMailTemplates,
  type MailTemplateDeps,
  putMailTemplate,
  resetMailTemplate,
  sendTestMail,
} from './service.ts'

export type MailTemplateRouteOptions = {
  mailer: Mailer
  /** Sender of every mail (MAIL_FROM). */
  from: string
  mailViewerUrl?: string
  now?: () => Date
}

/** メールテンプレート and the shop's sender (spec §7 "Settings and mail"). */
export function mailTemplateRoutes(app: AppInstance, opts: MailTemplateRouteOptions): void {
  const tags = ['mail']
  const deps: MailTemplateDeps = {
    db: app.db,
    mailer: opts.mailer,
    mailViewerUrl: opts.mailViewerUrl ?? null,
    now: opts.now ?? (() => new Date()),
  }
  app.route({
    ...tableRoute('GET /mail-templates', { tags, summary: 'メールテンプレートの一覧' }),
    handler: (request) => listMailTemplates(deps, request.shop),
  })
  app.route({
    ...tableRoute('GET /mail-template/:type', {
      tags,
      summary: 'メールテンプレート（変数・プレビュー付き）',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => getMailTemplate(deps, request.shop, request.params.type),
  })
  app.route({
    ...tableRoute('PUT /mail-template/:type', {
      tags,
      summary: 'メールテンプレートを保存（使えない変数は400）',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => putMailTemplate(deps, request.shop, request.params.type, request.body),
  })
  app.route({
    ...tableRoute('DELETE /mail-template/:type', {
      tags,
      summary: 'メールテンプレートを初期設定に戻す',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => resetMailTemplate(deps, request.shop, request.params.type),
  })
  app.route({
    ...tableRoute('POST /test-mail/:type', {
      tags,
      summary: 'サンプルの契約でテストメールを送信',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => sendTestMail(deps, request.shop, request.params.type, request.body.email),
  })
  app.route({
    ...tableRoute('GET /mail-address', { tags, summary: 'メールの送信元' }),
    handler: async (request) => {
      const shopMail = await findShopMail(app.db, request.shop.id)
      const address = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from
      const name = request.shop.name || request.shop.domain
      return { from: opts.from, shopMail, displayFrom: `${name} <${address}>` }
    },
  })
  app.route({
    ...tableRoute('GET /custom-shop-mail', { tags, summary: 'ストアのメールアドレス（返信先）' }),
    handler: async (request) => ({ shopMail: await findShopMail(app.db, request.shop.id) }),
  })
  app.route({
    ...tableRoute('PUT /custom-shop-mail', {
      tags,
      summary: 'ストアのメールアドレスを保存（空で解除）',
      errors: { 400: ZErrorResponse },
    }),
    handler: async (request) => {
      const shopMail = request.body.shopMail || null
      await saveShopMail(app.db, request.shop.id, shopMail)
      return { shopMail }
    },
  })
}

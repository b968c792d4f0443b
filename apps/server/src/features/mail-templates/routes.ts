import {
  ZCustomShopMail,
  ZCustomShopMailBody,
  ZMailAddressResponse,
  ZMailTemplateBody,
  ZMailTemplateList,
  ZMailTemplateParams,
  ZMailTemplateResponse,
  ZTestMailBody,
  ZTestMailResponse,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
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
  const api = apiRoutes(app, ['mail'])
  const deps: MailTemplateDeps = {
    db: app.db,
    mailer: opts.mailer,
    mailViewerUrl: opts.mailViewerUrl ?? null,
    now: opts.now ?? (() => new Date()),
  }
  const withType = { params: ZMailTemplateParams }

  api.get('/app-admin/mail-templates', 'メールテンプレートの一覧', {
    response: { 200: ZMailTemplateList },
    handler: (request) => listMailTemplates(deps, request.shop),
  })
  api.get('/app-admin/mail-template/:type', 'メールテンプレート（変数・プレビュー付き）', {
    ...withType,
    response: { 200: ZMailTemplateResponse, ...errorAnswers(400) },
    handler: (request) => getMailTemplate(deps, request.shop, request.params.type),
  })
  api.put('/app-admin/mail-template/:type', 'メールテンプレートを保存（使えない変数は400）', {
    ...withType,
    body: ZMailTemplateBody,
    response: { 200: ZMailTemplateResponse, ...errorAnswers(400) },
    handler: (request) => putMailTemplate(deps, request.shop, request.params.type, request.body),
  })
  api.delete('/app-admin/mail-template/:type', 'メールテンプレートを初期設定に戻す', {
    ...withType,
    response: { 200: ZMailTemplateResponse, ...errorAnswers(400) },
    handler: (request) => resetMailTemplate(deps, request.shop, request.params.type),
  })
  api.post('/app-admin/test-mail/:type', 'サンプルの契約でテストメールを送信', {
    ...withType,
    body: ZTestMailBody,
    response: { 200: ZTestMailResponse, ...errorAnswers(400) },
    handler: (request) => sendTestMail(deps, request.shop, request.params.type, request.body.email),
  })
  api.get('/app-admin/mail-address', 'メールの送信元', {
    response: { 200: ZMailAddressResponse },
    handler: async (request) => {
      const shopMail = await findShopMail(app.db, request.shop.id)
      const address = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from
      const name = request.shop.name || request.shop.domain
      return { from: opts.from, shopMail, displayFrom: `${name} <${address}>` }
    },
  })
  api.get('/app-admin/custom-shop-mail', 'ストアのメールアドレス（返信先）', {
    response: { 200: ZCustomShopMail },
    handler: async (request) => ({ shopMail: await findShopMail(app.db, request.shop.id) }),
  })
  api.put('/app-admin/custom-shop-mail', 'ストアのメールアドレスを保存（空で解除）', {
    body: ZCustomShopMailBody,
    response: { 200: ZCustomShopMail, ...errorAnswers(400) },
    handler: async (request) => {
      const shopMail = request.body.shopMail || null
      await saveShopMail(app.db, request.shop.id, shopMail)
      return { shopMail }
    },
  })
}

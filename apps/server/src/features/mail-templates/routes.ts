import {
  ZCustomShopMail,
  ZCustomShopMailBody,
  ZErrorResponse,
  ZMailAddressResponse,
  ZMailTemplateBody,
  ZMailTemplateList,
  ZMailTemplateParams,
  ZMailTemplateResponse,
  ZTestMailBody,
  ZTestMailResponse,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
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
  const withType = { params: ZMailTemplateParams }

  app.get(
    '/app-admin/mail-templates',
    { schema: { tags, summary: 'メールテンプレートの一覧', response: { 200: ZMailTemplateList } } },
    (request) => listMailTemplates(deps, request.shop),
  )
  app.get(
    '/app-admin/mail-template/:type',
    {
      schema: {
        tags,
        summary: 'メールテンプレート（変数・プレビュー付き）',
        ...withType,
        response: { 200: ZMailTemplateResponse, 400: ZErrorResponse },
      },
    },
    (request) => getMailTemplate(deps, request.shop, request.params.type),
  )
  app.put(
    '/app-admin/mail-template/:type',
    {
      schema: {
        tags,
        summary: 'メールテンプレートを保存（使えない変数は400）',
        ...withType,
        body: ZMailTemplateBody,
        response: { 200: ZMailTemplateResponse, 400: ZErrorResponse },
      },
    },
    (request) => putMailTemplate(deps, request.shop, request.params.type, request.body),
  )
  app.delete(
    '/app-admin/mail-template/:type',
    {
      schema: {
        tags,
        summary: 'メールテンプレートを初期設定に戻す',
        ...withType,
        response: { 200: ZMailTemplateResponse, 400: ZErrorResponse },
      },
    },
    (request) => resetMailTemplate(deps, request.shop, request.params.type),
  )
  app.post(
    '/app-admin/test-mail/:type',
    {
      schema: {
        tags,
        summary: 'サンプルの契約でテストメールを送信',
        ...withType,
        body: ZTestMailBody,
        response: { 200: ZTestMailResponse, 400: ZErrorResponse },
      },
    },
    (request) => sendTestMail(deps, request.shop, request.params.type, request.body.email),
  )
  app.get(
    '/app-admin/mail-address',
    { schema: { tags, summary: 'メールの送信元', response: { 200: ZMailAddressResponse } } },
    async (request) => {
      const shopMail = await findShopMail(app.db, request.shop.id)
      const address = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from
      const name = request.shop.name || request.shop.domain
      return { from: opts.from, shopMail, displayFrom: `${name} <${address}>` }
    },
  )
  app.get(
    '/app-admin/custom-shop-mail',
    { schema: { tags, summary: 'ストアのメールアドレス（返信先）', response: { 200: ZCustomShopMail } } },
    async (request) => ({ shopMail: await findShopMail(app.db, request.shop.id) }),
  )
  app.put(
    '/app-admin/custom-shop-mail',
    {
      schema: {
        tags,
        summary: 'ストアのメールアドレスを保存（空で解除）',
        body: ZCustomShopMailBody,
        response: { 200: ZCustomShopMail, 400: ZErrorResponse },
      },
    },
    async (request) => {
      const shopMail = request.body.shopMail || null
      await saveShopMail(app.db, request.shop.id, shopMail)
      return { shopMail }
    },
  )
}

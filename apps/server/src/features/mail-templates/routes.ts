import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
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
  const route = tableRoutes(app, { tags: ['mail'], errors: [400] })

  const deps: MailTemplateDeps = {
    db: app.db,
    mailer: opts.mailer,
    mailViewerUrl: opts.mailViewerUrl ?? null,
    now: opts.now ?? (() => new Date()),
  }
  route('GET /mail-templates', 'メールテンプレートの一覧', {
    errors: [],
    handler: (request) => listMailTemplates(deps, request.shop),
  })
  route('GET /mail-template/:type', 'メールテンプレート（変数・プレビュー付き）', {
    handler: (request) => getMailTemplate(deps, request.shop, request.params.type),
  })
  route('PUT /mail-template/:type', 'メールテンプレートを保存（使えない変数は400）', {
    handler: (request) => putMailTemplate(deps, request.shop, request.params.type, request.body),
  })
  route('DELETE /mail-template/:type', 'メールテンプレートを初期設定に戻す', {
    handler: (request) => resetMailTemplate(deps, request.shop, request.params.type),
  })
  route('POST /test-mail/:type', 'サンプルの契約でテストメールを送信', {
    handler: (request) => sendTestMail(deps, request.shop, request.params.type, request.body.email),
  })
  route('GET /mail-address', 'メールの送信元', {
    errors: [],
    handler: async (request) => {
      const shopMail = await findShopMail(app.db, request.shop.id)
      const address = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from
      const name = request.shop.name || request.shop.domain
      return { from: opts.from, shopMail, displayFrom: `${name} <${address}>` }
    },
  })
  route('GET /custom-shop-mail', 'ストアのメールアドレス（返信先）', {
    errors: [],
    handler: async (request) => ({ shopMail: await findShopMail(app.db, request.shop.id) }),
  })
  route('PUT /custom-shop-mail', 'ストアのメールアドレスを保存（空で解除）', {
    handler: async (request) => {
      const shopMail = request.body.shopMail || null
      await saveShopMail(app.db, request.shop.id, shopMail)
      return { shopMail }
    },
  })
}

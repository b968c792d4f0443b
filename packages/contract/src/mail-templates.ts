import { z } from 'zod'
import { ZText } from './primitives.ts'

/** The mails with a template (packages/domain/src/mail/variables.ts keeps the same list). */
export const MAIL_TEMPLATE_TYPE_VALUES = [
  'order_confirmation',
  'payment_failure',
  'final_action',
  'payment_challenge',
  'pause',
  'resume',
  'cancellation',
  'contract_change',
  'upcoming_billing',
  'export_ready',
] as const

export const ZMailTemplateParams = z.object({
  type: z.enum(MAIL_TEMPLATE_TYPE_VALUES, {
    error: `メールの種類は ${MAIL_TEMPLATE_TYPE_VALUES.join('、')} のいずれかで指定してください`,
  }),
})

export const MAIL_TITLE_MAX = 200
export const MAIL_BODY_MAX = 10_000
export const MAIL_SIGNATURE_MAX = 1_000

/** PUT /mail-template/{type}: title, body, signature (spec §7 "Settings and mail"). */
export const ZMailTemplateBody = z.object({
  title: ZText('件名', { max: MAIL_TITLE_MAX }).min(1, '件名を入力してください'),
  body: ZText('本文', { max: MAIL_BODY_MAX, multiline: true }).refine(
    (v) => v.trim() !== '',
    '本文を入力してください',
  ),
  signature: ZText('署名', { max: MAIL_SIGNATURE_MAX, multiline: true }).default(''),
})
export type MailTemplateBody = z.input<typeof ZMailTemplateBody>

export const ZMailVariable = z.object({ name: z.string(), label: z.string() })

/** GET /mail-template/{type}: the shop's template (or the default), its variables and a preview. */
export const ZMailTemplateResponse = z.object({
  type: z.enum(MAIL_TEMPLATE_TYPE_VALUES),
  label: z.string(),
  title: z.string(),
  body: z.string(),
  signature: z.string(),
  /** False while the shop uses the app's default text. */
  customized: z.boolean(),
  variables: z.array(ZMailVariable),
  /** The mail as a sample contract would get it. */
  preview: z.object({ subject: z.string(), text: z.string() }),
  /** The local mail catcher's page (embedded default only), where sent mails can be read. */
  mailViewerUrl: z.string().nullable(),
})
export type MailTemplateResponse = z.infer<typeof ZMailTemplateResponse>

/** GET /mail-templates: every mail with its title (the screen's list). */
export const ZMailTemplateList = z.object({
  templates: z.array(
    z.object({
      type: z.enum(MAIL_TEMPLATE_TYPE_VALUES),
      label: z.string(),
      title: z.string(),
      customized: z.boolean(),
    }),
  ),
  mailViewerUrl: z.string().nullable(),
})
export type MailTemplateList = z.infer<typeof ZMailTemplateList>

const EMAIL =
  /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

/** One e-mail address (no display name, no list). */
export const ZEmail = (label: string) =>
  ZText(label, { max: 254 })
    .min(1, `${label}を入力してください`)
    .regex(EMAIL, `${label}の形式が正しくありません（例: shop@example.jp）`)

/** POST /test-mail/{type}: the address the sample mail goes to. */
export const ZTestMailBody = z.object({ email: ZEmail('送信先メールアドレス') })

export const ZTestMailResponse = z.object({
  /** The outbox row of the mail. */
  mailId: z.string(),
  status: z.enum(['pending', 'sent', 'stored', 'failed']),
  to: z.string(),
  subject: z.string(),
})
export type TestMailResponse = z.infer<typeof ZTestMailResponse>

/** GET /mail-address: who the shop's customer mails come from and where replies go. */
export const ZMailAddressResponse = z.object({
  /** The envelope sender the app's SMTP uses (MAIL_FROM). */
  from: z.string(),
  /** The shop's own address (custom shop mail), used as Reply-To and in the From name; null when unset. */
  shopMail: z.string().nullable(),
  /** What a customer sees: `ストア名 <no-reply@…>`. */
  displayFrom: z.string(),
})
export type MailAddressResponse = z.infer<typeof ZMailAddressResponse>

/** GET and PUT /custom-shop-mail. */
export const ZCustomShopMail = z.object({ shopMail: z.string().nullable() })
export const ZCustomShopMailBody = z.object({
  /** Empty or null clears it (mails then carry the app's address only). */
  shopMail: z.union([z.literal(''), z.null(), ZEmail('ストアのメールアドレス')]),
})
export type CustomShopMailBody = z.input<typeof ZCustomShopMailBody>

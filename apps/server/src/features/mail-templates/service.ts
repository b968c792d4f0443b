import type {
  MailTemplateBody,
  MailTemplateList,
  MailTemplateResponse,
  TestMailResponse,
} from '@teiki/contract'
import {
  DEFAULT_MAIL_TEMPLATES,
  MAIL_TEMPLATE_TYPES,
  MAIL_VARIABLES,
  type MailTemplate,
  type MailTemplateType,
  type MailValues,
  mailTemplateLabel,
  mailTemplateProblems,
  renderMailTemplate,
  TEMPLATE_VARIABLES,
} from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { MailAttachment, Mailer, MailMessage } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import {
  contractLines,
  contractRecipient,
  deleteTemplate,
  findSampleContract,
  findShopMail,
  findTemplate,
  listSavedTemplates,
  saveTemplate,
} from './repo.ts'
import { sampleValues } from './sample.ts'

// The shop's mail templates (メールテンプレート) and the one way every mail of the app is written:
// `composeMail` renders the shop's template (or the default) with the mail's values, puts the
// shop's name and address on it, and the outbox sends it. Billing, exports and the contract
// actions call it; nothing else writes a mail's text.

export type ComposeInput = {
  type: MailTemplateType
  to: string
  values: MailValues
  dedupeKey?: string
  holdSeconds?: number
  attachments?: MailAttachment[]
}

/** The template the shop's mail of this type is written with. */
export async function templateFor(
  db: DbClient,
  shopId: string,
  type: MailTemplateType,
): Promise<MailTemplate> {
  return (await findTemplate(db, shopId, type)) ?? DEFAULT_MAIL_TEMPLATES[type]
}

/**
 * The mail to enqueue: the shop's template rendered (text and escaped HTML), From with the
 * shop's name, Reply-To the shop's address. A shop flagged `template_test` (spec §6) has its
 * customers' mails sent to its own address instead, marked with the customer's address, so
 * it can try templates on real contracts without mailing customers.
 */
export async function composeMail(db: DbClient, shop: ShopRow, input: ComposeInput): Promise<MailMessage> {
  const template = await templateFor(db, shop.id, input.type)
  const values = { shopName: shop.name || shop.domain, ...input.values }
  // A mail about a contract lists its lines unless the caller gave them.
  if (values.contractId && values.lines === undefined)
    values.lines = await contractLines(db, shop.id, values.contractId)
  const mail = renderMailTemplate(input.type, template, values, shop.iana_timezone)
  const shopMail = await findShopMail(db, shop.id)
  let to = input.to
  let subject = mail.subject
  if (input.type !== 'export_ready' && shopMail && (await isFlagOn(db, shop.id, 'template_test'))) {
    to = shopMail
    subject = `[テンプレート確認: ${input.to}宛て] ${mail.subject}`
  }
  return {
    shopId: shop.id,
    to,
    subject,
    text: mail.text,
    html: mail.html,
    fromName: shop.name || shop.domain,
    ...(shopMail ? { replyTo: shopMail } : {}),
    ...(input.attachments ? { attachments: input.attachments } : {}),
    ...(input.dedupeKey ? { dedupeKey: input.dedupeKey } : {}),
    ...(input.holdSeconds ? { holdSeconds: input.holdSeconds } : {}),
  }
}

export type MailTemplateDeps = { db: DbClient; mailer: Mailer; mailViewerUrl: string | null; now: () => Date }

async function preview(deps: MailTemplateDeps, shop: ShopRow, type: MailTemplateType, t: MailTemplate) {
  const values = sampleValues(
    shop,
    await findSampleContract(deps.db, shop.id),
    deps.now(),
    shop.iana_timezone,
  )
  return { values, mail: renderMailTemplate(type, t, values, shop.iana_timezone) }
}

export async function getMailTemplate(
  deps: MailTemplateDeps,
  shop: ShopRow,
  type: MailTemplateType,
): Promise<MailTemplateResponse> {
  const saved = await findTemplate(deps.db, shop.id, type)
  const t = saved ?? DEFAULT_MAIL_TEMPLATES[type]
  const { mail } = await preview(deps, shop, type, t)
  return {
    type,
    label: mailTemplateLabel[type],
    ...t,
    customized: saved !== null,
    variables: TEMPLATE_VARIABLES[type].map((name) => ({ name, label: MAIL_VARIABLES[name].label })),
    preview: { subject: mail.subject, text: mail.text },
    mailViewerUrl: deps.mailViewerUrl,
  }
}

export async function listMailTemplates(deps: MailTemplateDeps, shop: ShopRow): Promise<MailTemplateList> {
  const saved = await listSavedTemplates(deps.db, shop.id)
  return {
    templates: MAIL_TEMPLATE_TYPES.map((type) => ({
      type,
      label: mailTemplateLabel[type],
      title: (saved.get(type) ?? DEFAULT_MAIL_TEMPLATES[type]).title,
      customized: saved.has(type),
    })),
    mailViewerUrl: deps.mailViewerUrl,
  }
}

/** Saves the template when every variable is one this mail offers (400 naming the first that is not). */
export async function putMailTemplate(
  deps: MailTemplateDeps,
  shop: ShopRow,
  type: MailTemplateType,
  body: Required<MailTemplateBody>,
): Promise<MailTemplateResponse> {
  const t: MailTemplate = { title: body.title, body: body.body, signature: body.signature }
  const problems = mailTemplateProblems(type, t)
  if (problems.length > 0) throw new AppError('INVALID_INPUT', problems.join('\n'))
  await saveTemplate(deps.db, shop.id, type, t)
  return getMailTemplate(deps, shop, type)
}

export async function resetMailTemplate(deps: MailTemplateDeps, shop: ShopRow, type: MailTemplateType) {
  await deleteTemplate(deps.db, shop.id, type)
  return getMailTemplate(deps, shop, type)
}

/** The saved template with the sample contract's values, to `email`, through the outbox now. */
export async function sendTestMail(
  deps: MailTemplateDeps,
  shop: ShopRow,
  type: MailTemplateType,
  email: string,
): Promise<TestMailResponse> {
  const { values } = await preview(deps, shop, type, await templateFor(deps.db, shop.id, type))
  const message = await composeMail(deps.db, shop, { type, to: email, values })
  const subject = `【テスト送信】${message.subject}`
  const result = await deps.mailer.send({ ...message, to: email, subject })
  return { mailId: result.id, status: result.status, to: email, subject }
}

/**
 * Decides the customer's mail about a change the merchant made to a contract (pause, resume,
 * cancellation) in the change's transaction; answers the outbox row to deliver after the
 * commit, or null (no address, or this change was mailed already: `dedupeKey`).
 */
export async function decideContractMail(
  db: DbClient,
  mailer: Mailer,
  shop: ShopRow,
  input: {
    type: 'pause' | 'resume' | 'cancellation' | 'contract_change'
    contractId: string
    dedupeKey: string
    values?: MailValues
  },
): Promise<string | null> {
  const to = await contractRecipient(db, shop.id, input.contractId)
  if (!to?.email) return null
  const mail = await composeMail(db, shop, {
    type: input.type,
    to: to.email,
    dedupeKey: input.dedupeKey,
    values: {
      customerName: {
        firstName: to.first_name,
        lastName: to.last_name,
        displayName: to.display_name || 'お客様',
      },
      contractId: input.contractId,
      nextBillingDate: to.next_billing_date,
      ...input.values,
    },
  })
  return mailer.enqueue(db, mail)
}

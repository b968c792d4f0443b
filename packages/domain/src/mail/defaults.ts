import type { MailTemplate } from './template.ts'
import type { MailTemplateType } from './variables.ts'

const GREETING = '{{customerName}} 様\n\n{{shopName}}をご利用いただきありがとうございます。\n'
const CONTACT = '\nご不明な点がございましたら、ストアまでお問い合わせください。\n'
const LINES = '{{#lines}}\n\nご契約の商品:\n{{lines}}\n{{/lines}}\n'

/**
 * The texts the app sent before templates could be edited, as templates: a shop that never
 * edits one gets these (and 「初期設定に戻す」 brings them back).
 */
export const DEFAULT_MAIL_TEMPLATES: Record<MailTemplateType, MailTemplate> = {
  order_confirmation: {
    title: 'ご注文ありがとうございます（定期便）',
    body: `${GREETING}定期便のご注文を承りました。

ご注文番号: {{orderName}}
ご請求金額: {{amount}}
{{#isFinalDelivery}}

今回のお届けで定期便は最終回となります。
{{/isFinalDelivery}}
{{^isFinalDelivery}}
{{#nextBillingDate}}
次回ご請求日: {{nextBillingDate}}
{{/nextBillingDate}}
{{/isFinalDelivery}}
{{#deliveryDate}}
次回お届け予定日: {{deliveryDate}}
{{/deliveryDate}}

今後ともよろしくお願いいたします。
`,
    signature: '{{shopName}}',
  },
  payment_failure: {
    title: '定期便のご注文を承れませんでした',
    body: `${GREETING}{{billingDate}}の定期便は、{{failureReason}}、ご注文を承れませんでした。

{{retryDate}}にあらためてご注文をお受けします。
{{#paymentAdvice}}
{{paymentAdvice}}
{{/paymentAdvice}}
${CONTACT}`,
    signature: '{{shopName}}',
  },
  final_action: {
    title: '定期便のご注文を承れませんでした',
    body: `${GREETING}{{billingDate}}の定期便は、{{failureReason}}、ご注文を承れませんでした。

{{finalAction}}
{{#nextBillingDate}}
次回ご請求日: {{nextBillingDate}}
{{/nextBillingDate}}
${CONTACT}`,
    signature: '{{shopName}}',
  },
  payment_challenge: {
    title: 'カード会社による本人認証（3Dセキュア）をお願いします',
    body: `${GREETING}{{billingDate}}の定期便のお支払いで、カード会社による本人認証（3Dセキュア）が必要になりました。
お手数ですが、{{challengeDeadline}}までに下記のリンクを開き、本人認証を完了してください。

{{challengeUrl}}

本人認証が完了すると、ご注文を承ります。
期限までに完了しなかった場合、今回のご注文は承れないことがあります。
${CONTACT}`,
    signature: '{{shopName}}',
  },
  pause: {
    title: '定期便を一時停止しました',
    body: `${GREETING}ご契約の定期便（契約番号 {{contractId}}）を一時停止しました。
再開をご希望の際は、ストアまでご連絡ください。
${LINES}${CONTACT}`,
    signature: '{{shopName}}',
  },
  resume: {
    title: '定期便を再開しました',
    body: `${GREETING}ご契約の定期便（契約番号 {{contractId}}）を再開しました。
{{#nextBillingDate}}
次回ご請求日: {{nextBillingDate}}
{{/nextBillingDate}}
${LINES}${CONTACT}`,
    signature: '{{shopName}}',
  },
  cancellation: {
    title: '定期便の解約を承りました',
    body: `${GREETING}ご契約の定期便（契約番号 {{contractId}}）の解約を承りました。
{{#cancellationReason}}
解約理由: {{cancellationReason}}
{{/cancellationReason}}
これまでのご利用、誠にありがとうございました。
${LINES}${CONTACT}`,
    signature: '{{shopName}}',
  },
  contract_change: {
    title: 'ご契約内容を変更しました',
    body: `${GREETING}マイページでのお手続きにより、ご契約の定期便（契約番号 {{contractId}}）を変更しました。

{{changeSummary}}
{{#nextBillingDate}}
次回ご請求日: {{nextBillingDate}}
{{/nextBillingDate}}
${LINES}${CONTACT}`,
    signature: '{{shopName}}',
  },
  upcoming_billing: {
    title: '次回の定期便のお知らせ',
    body: `${GREETING}次回の定期便のご請求についてお知らせします。

次回ご請求日: {{nextBillingDate}}
{{#amount}}
ご請求予定金額: {{amount}}
{{/amount}}
{{#deliveryDate}}
お届け予定日: {{deliveryDate}}
{{/deliveryDate}}
${LINES}
内容の変更やお休みをご希望の場合は、ご請求日の前日までにストアまでご連絡ください。
`,
    signature: '{{shopName}}',
  },
  export_ready: {
    title: '【Teiki】定期購買契約のCSVエクスポートが完了しました（{{exportCount}}件）',
    body: `{{shopName}} ご担当者様

定期購買契約のCSVエクスポートが完了しました。

件数: {{exportCount}}件
ファイル: {{exportFileName}}
{{exportDetails}}
`,
    signature: '--\nTeiki（定期）\nこのメールは送信専用です。',
  },
}

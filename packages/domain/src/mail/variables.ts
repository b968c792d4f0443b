import { keysOf } from '../format/keys.ts'

/**
 * The mails the app sends, one template each (メールテンプレート), and the named variables each
 * template may use. A variable is written `{{name}}`; a section `{{#name}}…{{/name}}` is kept
 * only when the variable has a value (`{{^name}}…{{/name}}` only when it has none).
 */
export const mailTemplateLabel = {
  order_confirmation: 'ご注文確認（請求成功）',
  payment_failure: '決済失敗（再決済日のご案内）',
  final_action: '決済失敗の最終対応（解約・一時停止・スキップ）',
  payment_challenge: '本人認証（3Dセキュア）のお願い',
  pause: '一時停止',
  resume: '再開',
  cancellation: '解約',
  contract_change: 'ご契約内容の変更（マイページ）',
  upcoming_billing: '次回請求のお知らせ',
  export_ready: 'CSVエクスポート完了（ストア担当者宛て）',
} as const
export type MailTemplateType = keyof typeof mailTemplateLabel
export const MAIL_TEMPLATE_TYPES = keysOf(mailTemplateLabel)

/** How a value is written into a mail. */
export type MailVariableKind = 'text' | 'name' | 'money' | 'date' | 'datetime' | 'lines' | 'number' | 'flag'

export const MAIL_VARIABLES = {
  customerName: { label: 'お客様のお名前（姓 名）', kind: 'name' },
  shopName: { label: 'ストア名', kind: 'text' },
  contractId: { label: '契約番号', kind: 'text' },
  lines: { label: '契約の商品（商品名・数量・金額）', kind: 'lines' },
  amount: { label: 'ご請求金額', kind: 'money' },
  orderName: { label: 'ご注文番号', kind: 'text' },
  billingDate: { label: '対象の請求日', kind: 'date' },
  nextBillingDate: { label: '次回ご請求日', kind: 'date' },
  deliveryDate: { label: '次回お届け予定日', kind: 'date' },
  isFinalDelivery: { label: '最終回のお届け（あるときだけ表示）', kind: 'flag' },
  failureReason: { label: '決済できなかった理由', kind: 'text' },
  retryDate: { label: '再決済日', kind: 'date' },
  paymentAdvice: { label: 'お支払い方法についてのご案内', kind: 'text' },
  finalAction: { label: '最終対応（解約・一時停止・スキップ）の説明', kind: 'text' },
  challengeUrl: { label: '本人認証のリンク', kind: 'text' },
  challengeDeadline: { label: '本人認証の期限（日時）', kind: 'datetime' },
  cancellationReason: { label: '解約理由', kind: 'text' },
  changeSummary: { label: '変更の内容', kind: 'text' },
  exportCount: { label: 'エクスポートした件数', kind: 'number' },
  exportFileName: { label: 'ファイル名', kind: 'text' },
  exportDetails: { label: 'エクスポートの詳細（条件・添付）', kind: 'text' },
} as const satisfies Record<string, { label: string; kind: MailVariableKind }>

export type MailVariableName = keyof typeof MAIL_VARIABLES

const CUSTOMER: MailVariableName[] = ['customerName', 'shopName', 'contractId', 'lines']

/** Which variables each template may use (any other is refused when the template is saved). */
export const TEMPLATE_VARIABLES: Record<MailTemplateType, readonly MailVariableName[]> = {
  order_confirmation: [
    ...CUSTOMER,
    'orderName',
    'amount',
    'nextBillingDate',
    'deliveryDate',
    'isFinalDelivery',
  ],
  payment_failure: [...CUSTOMER, 'billingDate', 'failureReason', 'retryDate', 'paymentAdvice'],
  final_action: [...CUSTOMER, 'billingDate', 'failureReason', 'finalAction', 'nextBillingDate'],
  payment_challenge: [...CUSTOMER, 'billingDate', 'challengeUrl', 'challengeDeadline'],
  pause: [...CUSTOMER],
  resume: [...CUSTOMER, 'nextBillingDate'],
  cancellation: [...CUSTOMER, 'cancellationReason'],
  contract_change: [...CUSTOMER, 'changeSummary', 'nextBillingDate'],
  upcoming_billing: [...CUSTOMER, 'nextBillingDate', 'amount', 'deliveryDate'],
  export_ready: ['shopName', 'exportCount', 'exportFileName', 'exportDetails'],
}

export function isMailTemplateType(value: string): value is MailTemplateType {
  return (MAIL_TEMPLATE_TYPES as readonly string[]).includes(value)
}

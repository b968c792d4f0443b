import { formatDateJa, formatDateTimeJa } from '../format/dates.ts'
import { formatMoney } from '../format/money.ts'
import { japaneseName, type PersonName } from '../format/names.ts'
import { formatNumber } from '../format/numbers.ts'

/** A contract line as a mail lists it. */
export type MailLine = {
  title: string
  variantTitle?: string | null
  quantity: number
  /** Price of one unit this cycle. */
  unitPrice: { amount: string | number; currencyCode: string }
}

/**
 * The values a mail is rendered with, by variable name. Dates are instants (or `YYYY-MM-DD`)
 * written as 2026年11月24日 in `timeZone`; money as ¥1,980; the customer's name family name
 * first. A missing (or empty) value renders as nothing and drops its `{{#name}}` sections.
 */
export type MailValues = {
  customerName?: PersonName
  shopName?: string
  contractId?: string
  lines?: MailLine[]
  amount?: { amount: string | number; currencyCode: string }
  orderName?: string
  billingDate?: string | Date
  nextBillingDate?: string | Date | null
  deliveryDate?: string | Date | null
  isFinalDelivery?: boolean
  failureReason?: string
  retryDate?: string | Date | null
  paymentAdvice?: string
  finalAction?: string
  challengeUrl?: string
  challengeDeadline?: string | Date
  cancellationReason?: string | null
  changeSummary?: string
  exportCount?: number
  exportFileName?: string
  exportDetails?: string
}

/** One contract line: `・定期便コーヒー豆（200g） × 2　¥3,960`. */
export function formatMailLine(line: MailLine): string {
  const name = line.variantTitle ? `${line.title}（${line.variantTitle}）` : line.title
  const total = Number(line.unitPrice.amount) * line.quantity
  return `・${name} × ${formatNumber(line.quantity)}　${formatMoney(total, line.unitPrice.currencyCode)}`
}

/** The text a value is written as; null when it has none (its sections are dropped). */
export function formatMailValue(name: keyof MailValues, values: MailValues, timeZone: string): string | null {
  const v = values[name]
  if (v === undefined || v === null || v === '' || v === false) return null
  switch (name) {
    case 'customerName': {
      const text = japaneseName(v as PersonName)
      return text === '' ? null : text
    }
    case 'lines': {
      const lines = v as MailLine[]
      return lines.length === 0 ? null : lines.map(formatMailLine).join('\n')
    }
    case 'amount': {
      const m = v as { amount: string | number; currencyCode: string }
      return formatMoney(m.amount, m.currencyCode)
    }
    case 'billingDate':
    case 'nextBillingDate':
    case 'deliveryDate':
    case 'retryDate':
      return formatDateJa(v as string | Date, timeZone)
    case 'challengeDeadline':
      return formatDateTimeJa(v as string | Date, timeZone)
    case 'exportCount':
      return formatNumber(v as number)
    case 'isFinalDelivery':
      return 'はい'
    default:
      return String(v)
  }
}

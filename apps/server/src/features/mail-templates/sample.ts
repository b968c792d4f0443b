import { type MailValues, toZonedDate } from '@teiki/domain'
import type { SampleContract } from './repo.ts'

const DAY = 86_400_000

/**
 * Values for the preview and the test mail: the shop's newest active contract when the mirror
 * has one (its customer, lines and next billing date), else a made-up customer; the dates are
 * counted from `now` so the sample reads like a real mail of this week.
 */
export function sampleValues(
  shop: { name: string; domain: string },
  contract: SampleContract | null,
  now: Date,
  timeZone: string,
): MailValues {
  const next = contract?.nextBillingDate ?? new Date(now.getTime() + 14 * DAY)
  const lines = contract?.lines.length
    ? contract.lines
    : [
        {
          title: '定期便 コーヒー豆',
          variantTitle: '200g',
          quantity: 2,
          unitPrice: { amount: 1980, currencyCode: 'JPY' },
        },
      ]
  const total = lines.reduce((sum, l) => sum + Number(l.unitPrice.amount) * l.quantity, 0)
  return {
    customerName: contract
      ? { firstName: contract.firstName, lastName: contract.lastName, displayName: contract.displayName }
      : { lastName: '山田', firstName: '花子' },
    shopName: shop.name || shop.domain,
    contractId: contract?.id ?? '1000001',
    lines,
    amount: { amount: total, currencyCode: lines[0]?.unitPrice.currencyCode ?? 'JPY' },
    orderName: '#1001',
    billingDate: now,
    nextBillingDate: next,
    // A real contract's お届け予定日 as 契約詳細 shows it (none: no date in the mail either).
    deliveryDate: contract ? contract.deliveryDate : new Date(next.getTime() + 3 * DAY),
    failureReason: 'ご登録のお支払い方法で決済を完了できなかったため',
    retryDate: new Date(now.getTime() + 4 * DAY),
    paymentAdvice: 'それまでに、カードの有効期限やご利用限度額など、お支払い方法をご確認ください。',
    finalAction: '再度のお手続きでもご注文を承れなかったため、定期便を解約いたしました。',
    challengeUrl: 'https://example.jp/3ds/sample',
    challengeDeadline: new Date(now.getTime() + 3 * DAY),
    cancellationReason: '商品が余っているため',
    changeSummary: '次回のお届けをスキップしました。',
    exportCount: 320,
    exportFileName: `subscription-contracts-${toZonedDate(now, timeZone).replaceAll('-', '')}.csv`,
    exportDetails: '絞り込み条件: なし（すべての契約）\nCSVファイルを添付しました。',
  }
}

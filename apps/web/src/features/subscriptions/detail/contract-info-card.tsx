import type { SubscriptionDetail } from '@teiki/contract'
import { formatDateJa, formatDateTimeJa, formatMoney } from '@teiki/domain'
import { cyclesLabel, intervalLabel, paymentStatusLabel, safeDate } from './detail-format.ts'
import { DetailCard, DetailRow } from './detail-section.tsx'

/** 契約情報: schedule, cycles, counts and the contract's own fields. */
export function ContractInfoCard({ detail }: { detail: SubscriptionDetail }) {
  const policy = detail.billingPolicy
  return (
    <DetailCard title="契約情報" testId="contract-info">
      <DetailRow label="次回請求日">{safeDate(detail.nextBillingDate, formatDateJa)}</DetailRow>
      <DetailRow label="請求間隔">{intervalLabel(detail.interval, detail.intervalCount)}</DetailRow>
      <DetailRow label="最低回数">{cyclesLabel(policy.minCycles)}</DetailRow>
      <DetailRow label="最大回数">{cyclesLabel(policy.maxCycles, '無制限')}</DetailRow>
      <DetailRow label="注文回数">{`${detail.orderCount}回`}</DetailRow>
      <DetailRow label="前回の決済">{paymentStatusLabel(detail.lastPaymentStatus)}</DetailRow>
      <DetailRow label="通貨">{detail.currencyCode}</DetailRow>
      <DetailRow label="配送料">
        {detail.deliveryPrice
          ? formatMoney(detail.deliveryPrice.amount, detail.deliveryPrice.currencyCode)
          : '—'}
      </DetailRow>
      <DetailRow label="作成日時">{safeDate(detail.createdAt, formatDateTimeJa)}</DetailRow>
      <DetailRow label="更新日時">{safeDate(detail.updatedAt, formatDateTimeJa)}</DetailRow>
      <DetailRow label="メモ">
        {detail.note ? <span style={{ whiteSpace: 'pre-wrap' }}>{detail.note}</span> : '—'}
      </DetailRow>
      <DetailRow label="カスタム属性">
        {detail.customAttributes.length === 0
          ? '—'
          : detail.customAttributes.map((attribute) => (
              <span key={attribute.key} style={{ display: 'block' }}>
                {attribute.key}: {attribute.value ?? '—'}
              </span>
            ))}
      </DetailRow>
    </DetailCard>
  )
}

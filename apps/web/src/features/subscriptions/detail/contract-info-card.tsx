import type { SubscriptionDetail } from '@teiki/contract'
import { formatDateJa, formatDateTimeJa, formatMoney, TERMINAL_STATUSES, upcomingDate } from '@teiki/domain'
import { type ReactNode, useState } from 'react'
import { BillingDateModal } from './billing-date-modal.tsx'
import { deliveryTimeText } from './contract-edits.ts'
import { DeliveryDateModal } from './delivery-date-modal.tsx'
import { DeliveryTimeModal } from './delivery-time-modal.tsx'
import { attributeText, cyclesLabel, paymentStatusLabel, safeDate, scheduleLabel } from './detail-format.ts'
import { CardButton, DetailCard, DetailRow } from './detail-section.tsx'
import { IntervalModal } from './interval-modal.tsx'
import { NoteModal } from './note-modal.tsx'
import { OrderCountModal } from './order-count-modal.tsx'
import type { DetailCardProps, EditModalProps } from './use-contract-edit.ts'

type InfoEdit =
  | 'next-billing-date'
  | 'next-delivery-date'
  | 'delivery-time'
  | 'interval'
  | 'order-count'
  | 'note'

const MODALS: Record<InfoEdit, (props: EditModalProps) => ReactNode> = {
  'next-billing-date': BillingDateModal,
  'next-delivery-date': DeliveryDateModal,
  'delivery-time': DeliveryTimeModal,
  interval: IntervalModal,
  'order-count': OrderCountModal,
  note: NoteModal,
}

/** The row each 編集 button edits, which is also the button's accessible name: 「次回請求日を編集」. */
const INFO_LABELS: Record<InfoEdit, string> = {
  'next-billing-date': '次回請求日',
  'next-delivery-date': '次回お届け予定日',
  'delivery-time': '配送時間帯',
  interval: '請求間隔',
  'order-count': '注文回数',
  note: 'メモ',
}

/**
 * 契約情報: schedule, cycles, counts and the contract's own fields, each editable field with its
 * 編集 button (`edit-<field>`). `editable` is false for contracts that cannot change any more;
 * the order count is the app's own record and stays correctable.
 */
export function ContractInfoCard({ detail, reload, editable, disabled }: DetailCardProps) {
  const [editing, setEditing] = useState<InfoEdit | null>(null)
  const policy = detail.billingPolicy
  const edit = (field: InfoEdit, allowed = editable) =>
    allowed ? (
      <CardButton
        testId={`edit-${field}`}
        label={`${INFO_LABELS[field]}を編集`}
        onClick={() => setEditing(field)}
        disabled={disabled}
      >
        編集
      </CardButton>
    ) : undefined
  const OpenModal = editing ? MODALS[editing] : null
  // An ended contract has no next date, whatever the platform kept (issue 22).
  const nextBilling = upcomingDate(detail.status, detail.nextBillingDate)
  const nextDelivery = upcomingDate(detail.status, detail.nextDeliveryDate)
  const ended = TERMINAL_STATUSES.has(detail.status)

  return (
    <DetailCard title="契約情報" testId="contract-info">
      <DetailRow label={INFO_LABELS['next-billing-date']} action={edit('next-billing-date')}>
        <span data-testid="contract-next-billing-date">{safeDate(nextBilling, formatDateJa)}</span>
      </DetailRow>
      <DetailRow label={INFO_LABELS['next-delivery-date']} action={edit('next-delivery-date')}>
        <span data-testid="contract-next-delivery-date">
          {nextDelivery ? safeDate(nextDelivery, formatDateJa) : ended ? '—' : '指定なし'}
        </span>
      </DetailRow>
      <DetailRow label={INFO_LABELS['delivery-time']} action={edit('delivery-time')}>
        <span data-testid="contract-delivery-time">{deliveryTimeText(detail.deliveryTime)}</span>
      </DetailRow>
      <DetailRow label={INFO_LABELS.interval} action={edit('interval')}>
        <span data-testid="contract-interval">
          {scheduleLabel(detail.interval, detail.intervalCount, detail.anchors)}
        </span>
      </DetailRow>
      <DetailRow label="最低回数">{cyclesLabel(policy.minCycles)}</DetailRow>
      <DetailRow label="最大回数">{cyclesLabel(policy.maxCycles, '無制限')}</DetailRow>
      <DetailRow label={INFO_LABELS['order-count']} action={edit('order-count', true)}>
        <span data-testid="contract-order-count">{`${detail.orderCount}回`}</span>
      </DetailRow>
      <DetailRow label="前回の決済">{paymentStatusLabel(detail.lastPaymentStatus)}</DetailRow>
      <DetailRow label="通貨">{detail.currencyCode}</DetailRow>
      <DetailRow label="配送料">
        {detail.deliveryPrice
          ? formatMoney(detail.deliveryPrice.amount, detail.deliveryPrice.currencyCode)
          : '—'}
      </DetailRow>
      <DetailRow label="作成日時">{safeDate(detail.createdAt, formatDateTimeJa)}</DetailRow>
      <DetailRow label="更新日時">{safeDate(detail.updatedAt, formatDateTimeJa)}</DetailRow>
      {detail.cancellation ? <CancellationRows cancellation={detail.cancellation} /> : null}
      <DetailRow label={INFO_LABELS.note} action={edit('note')}>
        {detail.note ? <span style={{ whiteSpace: 'pre-wrap' }}>{detail.note}</span> : '—'}
      </DetailRow>
      <DetailRow label="カスタム属性">
        {detail.customAttributes.length === 0
          ? '—'
          : detail.customAttributes.map((attribute) => (
              <span key={attribute.key} style={{ display: 'block' }}>
                {attribute.key}: {attributeText(attribute.value)}
              </span>
            ))}
      </DetailRow>
      {OpenModal ? <OpenModal detail={detail} reload={reload} onClose={() => setEditing(null)} /> : null}
    </DetailCard>
  )
}

function CancellationRows({
  cancellation,
}: {
  cancellation: NonNullable<SubscriptionDetail['cancellation']>
}) {
  return (
    <>
      <DetailRow label="解約日時">{safeDate(cancellation.cancelledAt, formatDateTimeJa)}</DetailRow>
      <DetailRow label="解約理由">
        <span data-testid="contract-cancellation-reason" style={{ whiteSpace: 'pre-wrap' }}>
          {cancellation.reason || '—'}
        </span>
      </DetailRow>
    </>
  )
}

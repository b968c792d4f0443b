import { Badge, DataTable, Link } from '@shopify/polaris'
import type { BatchItemStatus, SubscriptionStatus } from '@teiki/contract'
import { formatDateJa, statusLabel, statusTone, upcomingDate } from '@teiki/domain'
import type { ReactNode } from 'react'
import { ListPagination } from '../../app/list-pagination.tsx'
import { RESULT_LABELS } from './batch-api.ts'

type Row = {
  contractId: string
  customerName: string
  email: string | null
  status: SubscriptionStatus
  nextBillingDate: string | null
  result?: BatchItemStatus
  reason?: string | null
}

const RESULT_TONES: Record<BatchItemStatus, 'success' | 'info' | 'critical' | undefined> = {
  changed: 'success',
  skipped: 'info',
  failed: 'critical',
  pending: undefined,
}

/** The contracts of a preview or a report, one page, with 前へ / 次へ. */
export function BatchContractsTable({
  rows,
  total,
  offset,
  limit,
  onPage,
}: {
  rows: Row[]
  total: number
  offset: number
  limit: number
  onPage: (offset: number) => void
}) {
  const withResult = rows.some((r) => r.result !== undefined)
  const headings = ['契約ID', 'お客様', 'ステータス', '次回請求日', ...(withResult ? ['結果', '理由'] : [])]
  const cells = rows.map((r) => {
    const row: ReactNode[] = [
      <Link key="id" url={`/subscriptions/${r.contractId}`}>
        {r.contractId}
      </Link>,
      r.customerName || r.email || '—',
      <Badge key="s" tone={statusTone[r.status]}>
        {statusLabel[r.status]}
      </Badge>,
      upcomingDate(r.status, r.nextBillingDate) ? formatDateJa(`${r.nextBillingDate}T12:00:00Z`, 'UTC') : '—',
    ]
    if (withResult && r.result) {
      row.push(
        <Badge key="r" tone={RESULT_TONES[r.result]}>
          {RESULT_LABELS[r.result]}
        </Badge>,
        // Reasons are sentences: they wrap instead of widening the table.
        <div key="why" style={{ whiteSpace: 'normal', minWidth: '16rem', maxWidth: '28rem' }}>
          {r.reason ?? ''}
        </div>,
      )
    }
    return row
  })
  return (
    <div data-testid="batch-contracts">
      <DataTable
        columnContentTypes={headings.map(() => 'text')}
        headings={headings}
        rows={cells}
        verticalAlign="middle"
      />
      <ListPagination
        testId="batch-contracts-pagination"
        range={{ offset, shown: rows.length, total }}
        hasPrevious={offset > 0}
        onPrevious={() => onPage(Math.max(0, offset - limit))}
        hasNext={offset + rows.length < total}
        onNext={() => onPage(offset + limit)}
      />
    </div>
  )
}

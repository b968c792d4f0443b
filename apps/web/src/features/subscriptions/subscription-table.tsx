import { Badge, IndexTable, SkeletonBodyText, Text } from '@shopify/polaris'
import type { SubscriptionRow } from '@teiki/contract'
import { formatDateJa, statusLabel, statusTone, upcomingDate } from '@teiki/domain'
import { type KeyboardEvent, type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react'
import { useAppNavigate } from '../../app/use-app-navigate.ts'
import { useTestIds } from '../../app/use-test-ids.ts'
import { PAGE_SIZE } from './search-request.ts'
import './subscription-table.css'
import { RowLink } from '../../app/row-link.tsx'

const HEADINGS: [{ title: string }, ...{ title: string }[]] = [
  { title: 'ステータス' },
  { title: '顧客名' },
  { title: '契約ID' },
  { title: '次回請求日' },
]

const RESOURCE_NAME = { singular: '契約', plural: '契約' }

const SKELETON_IDS = Array.from({ length: PAGE_SIZE }, (_, index) => `skeleton-${index}`)

type Props = {
  /** null while the first page loads: skeleton rows keep the table's height. */
  rows: readonly SubscriptionRow[] | null
  isRefreshing: boolean
}

export function SubscriptionTable({ rows, isRefreshing }: Props) {
  const ref = useRef<HTMLDivElement>(null)
  useTestIds(ref, { 'tbody tr[id^="subscription-"]': 'subscription-row' })
  useFocusableRows(ref)
  const navigate = useAppNavigate()

  // Enter on a focused row opens the contract, as a click does (the row's link keeps shop+secret).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLTableRowElement)) return
    const contractId = /^subscription-(\d+)$/.exec(event.target.id)?.[1]
    if (!contractId) return
    event.preventDefault()
    navigate(detailPath(contractId))
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates Enter from the focusable rows.
    <div
      ref={ref}
      className="teiki-subscription-table"
      aria-busy={rows === null || isRefreshing}
      onKeyDown={onKeyDown}
    >
      <IndexTable
        resourceName={RESOURCE_NAME}
        itemCount={rows?.length ?? PAGE_SIZE}
        headings={HEADINGS}
        selectable={false}
        loading={isRefreshing}
      >
        {rows === null
          ? SKELETON_IDS.map((id, index) => <SkeletonRow key={id} id={id} position={index} />)
          : rows.map((row, index) => <ContractRow key={row.cursor} row={row} position={index} />)}
      </IndexTable>
    </div>
  )
}

function ContractRow({ row, position }: { row: SubscriptionRow; position: number }) {
  return (
    <IndexTable.Row id={`subscription-${row.contractId}`} position={position}>
      <IndexTable.Cell>
        <CellBox>
          <Badge tone={statusTone[row.status]}>{statusLabel[row.status]}</Badge>
        </CellBox>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <CellBox>
          <Text as="span" fontWeight="medium">
            {row.displayName || '（名前未登録）'}
          </Text>
        </CellBox>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <CellBox>
          {/* The row's click is replayed on this link; stopping the link's own click here keeps
              one navigation (one history entry) when the link itself is clicked. */}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: only stops propagation. */}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: the link inside handles the keyboard. */}
          <span onClick={(event) => event.stopPropagation()}>
            <RowLink url={detailPath(row.contractId)} primary numeric>
              {row.contractId}
            </RowLink>
          </span>
        </CellBox>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <CellBox>{nextBillingText(row)}</CellBox>
      </IndexTable.Cell>
    </IndexTable.Row>
  )
}

/** The detail page of a contract (in-app path; links add shop+secret). */
export function detailPath(contractId: string): string {
  return `/subscriptions/${encodeURIComponent(contractId)}`
}

/** Real rows (not skeletons) join the tab order so the keyboard can open them. */
function useFocusableRows(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    for (const row of ref.current?.querySelectorAll('tbody tr[id^="subscription-"]') ?? []) {
      if (row.getAttribute('tabindex') !== '0') row.setAttribute('tabindex', '0')
    }
  })
}

function SkeletonRow({ id, position }: { id: string; position: number }) {
  return (
    <IndexTable.Row id={id} position={position}>
      {HEADINGS.map((heading) => (
        <IndexTable.Cell key={heading.title}>
          <CellBox>
            <div style={{ width: '6rem' }}>
              <SkeletonBodyText lines={1} />
            </div>
          </CellBox>
        </IndexTable.Cell>
      ))}
    </IndexTable.Row>
  )
}

/** Same height for skeleton and real cells, so rows do not jump when data arrives. */
function CellBox({ children }: { children: ReactNode }) {
  return <div className="teiki-cell">{children}</div>
}

/** The list's 次回請求日: Japan-time day, 「—」 when none or when the contract has ended. */
export function nextBillingText(row: Pick<SubscriptionRow, 'status' | 'nextBillingDate'>): string {
  const date = upcomingDate(row.status, row.nextBillingDate)
  return date ? formatDateJa(date, 'Asia/Tokyo') : '—'
}

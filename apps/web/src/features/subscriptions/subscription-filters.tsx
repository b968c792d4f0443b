import { Button, ChoiceList, InlineStack, Popover } from '@shopify/polaris'
import type { SubscriptionStatus } from '@teiki/contract'
import { isValidCalendarDate, SUBSCRIPTION_STATUSES, statusLabel } from '@teiki/domain'
import { useState } from 'react'
import { DateField } from '../../app/date-field.tsx'
import type { FilterDateErrors, SearchFilters } from './search-request.ts'

type Props = {
  filters: SearchFilters
  /** Why a date cannot filter the list, per field (the list says so too). */
  dateErrors: FilterDateErrors
  onChange: (filters: SearchFilters) => void
}

/** A bound for the other field: only a real day (a refused text bounds nothing). */
const dayOrNone = (value: string) => (isValidCalendarDate(value) ? value : undefined)

const STATUS_CHOICES = SUBSCRIPTION_STATUSES.map((status) => ({ label: statusLabel[status], value: status }))

export function SubscriptionFilters({ filters, dateErrors, onChange }: Props) {
  const [isStatusOpen, setIsStatusOpen] = useState(false)
  const hasFilters =
    filters.statuses.length > 0 || filters.nextBillingDateFrom !== '' || filters.nextBillingDateTo !== ''

  const statusSummary =
    filters.statuses.length === 0
      ? 'ステータス：すべて'
      : `ステータス：${filters.statuses.map((status) => statusLabel[status]).join('、')}`

  return (
    <InlineStack gap="300" blockAlign="end" wrap>
      <div data-testid="status-filter">
        <Popover
          active={isStatusOpen}
          onClose={() => setIsStatusOpen(false)}
          preferredAlignment="left"
          activator={
            <Button disclosure onClick={() => setIsStatusOpen((open) => !open)}>
              {statusSummary}
            </Button>
          }
        >
          <Popover.Section>
            <ChoiceList
              title="ステータス"
              allowMultiple
              choices={STATUS_CHOICES}
              selected={[...filters.statuses]}
              onChange={(selected) => onChange({ ...filters, statuses: selected as SubscriptionStatus[] })}
            />
          </Popover.Section>
        </Popover>
      </div>
      <div style={{ minWidth: '13rem' }}>
        <DateField
          testId="next-billing-from"
          label="次回請求日（から）"
          value={filters.nextBillingDateFrom}
          max={dayOrNone(filters.nextBillingDateTo)}
          clearable
          placeholder="指定なし"
          error={dateErrors.from}
          onChange={(value) => onChange({ ...filters, nextBillingDateFrom: value })}
        />
      </div>
      <div style={{ minWidth: '13rem' }}>
        <DateField
          testId="next-billing-to"
          label="次回請求日（まで）"
          value={filters.nextBillingDateTo}
          min={dayOrNone(filters.nextBillingDateFrom)}
          clearable
          placeholder="指定なし"
          error={dateErrors.to}
          onChange={(value) => onChange({ ...filters, nextBillingDateTo: value })}
        />
      </div>
      {hasFilters ? (
        <Button
          variant="plain"
          onClick={() => onChange({ statuses: [], nextBillingDateFrom: '', nextBillingDateTo: '' })}
        >
          絞り込みをクリア
        </Button>
      ) : null}
    </InlineStack>
  )
}

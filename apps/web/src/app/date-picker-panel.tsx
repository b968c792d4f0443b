import { DatePicker } from '@shopify/polaris'
import { isValidCalendarDate } from '@teiki/domain'
import type { CSSProperties } from 'react'
import { fromPickerDate, monthTitle, toPickerDate } from './date-field-model.ts'

/**
 * The calendar of a DateField, loaded when a calendar is first opened: Polaris' DatePicker is
 * not needed to show the list, so it stays out of the first page's bundle.
 */
export default function DatePickerPanel({
  shown,
  onShownChange,
  value,
  min,
  max,
  onPick,
}: {
  shown: { year: number; month: number }
  onShownChange: (shown: { year: number; month: number }) => void
  value: string
  min?: string | undefined
  max?: string | undefined
  onPick: (day: string) => void
}) {
  const titleStyle = { '--teiki-month-title': JSON.stringify(monthTitle(shown.year, shown.month)) }
  return (
    <div className="teiki-date-picker" style={titleStyle as CSSProperties}>
      <DatePicker
        month={shown.month}
        year={shown.year}
        onMonthChange={(month, year) => onShownChange({ month, year })}
        selected={isValidCalendarDate(value) ? toPickerDate(value) : undefined}
        onChange={({ start }) => onPick(fromPickerDate(start))}
        disableDatesBefore={min ? toPickerDate(min) : undefined}
        disableDatesAfter={max ? toPickerDate(max) : undefined}
      />
    </div>
  )
}

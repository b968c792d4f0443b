import { Box, Button, Popover, Spinner, TextField } from '@shopify/polaris'
import { CalendarIcon } from '@shopify/polaris-icons'
import { lazy, type ReactNode, Suspense, useEffect, useId, useState } from 'react'
import { type DateBounds, dateText, japanToday, openingMonth, readTypedDate } from './date-field-model.ts'
import './date-field.css'

const DatePickerPanel = lazy(() => import('./date-picker-panel.tsx'))

type Props = {
  label: string
  /** The chosen day `YYYY-MM-DD` ('' for none; other text: what was typed and did not read). */
  value: string
  /** A day `YYYY-MM-DD`, '' when cleared, or the typed text when it is not a day. */
  onChange: (value: string) => void
  /** First and last day that can be chosen (the calendar greys out the others). */
  min?: string
  max?: string
  /** What `min` is when it has a name (今日), for the message of an earlier day. */
  minMeaning?: string
  error?: string
  helpText?: ReactNode
  /** Shows a clear button (a filter or an optional date). */
  clearable?: boolean
  testId?: string
  disabled?: boolean
  /** Shown while empty; a filter says what empty means (指定なし). */
  placeholder?: string
}

/**
 * A date field as Japanese merchants read dates (2027年1月15日): Polaris' DatePicker in a
 * popover with Japanese month and weekday headings, days outside `min`/`max` greyed out, and
 * the same date typeable (2027/1/15, 2027-01-15, 2027年1月15日). Never the browser's
 * `<input type="date">`, whose format follows the browser's language.
 */
export function DateField({
  label,
  value,
  onChange,
  min,
  max,
  minMeaning,
  error,
  helpText,
  clearable,
  testId,
  disabled,
  placeholder = '例: 2027年1月15日',
}: Props) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [shown, setShown] = useState(() => openingMonth(value, min, japanToday()))
  const typing = useTypedDate(value, onChange, { min, max, label, minMeaning })

  const toggle = () => {
    if (!open) setShown(openingMonth(value, min, japanToday()))
    setOpen(!open)
  }

  const pick = (day: string) => {
    typing.picked(day)
    setOpen(false)
  }

  return (
    // Focus is followed on the whole field (input, clear button, calendar button): Polaris'
    // own onBlur does not fire when focus moves from the input to its clear button.
    // biome-ignore lint/a11y/noStaticElementInteractions: only follows focus of the controls inside.
    <div
      data-testid={testId}
      className="teiki-date-field"
      onFocus={() => typing.setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) typing.leave()
      }}
    >
      <Popover
        active={open}
        onClose={() => setOpen(false)}
        preferredAlignment="left"
        autofocusTarget="first-node"
        activator={
          <TextField
            id={id}
            label={label}
            value={typing.text}
            onChange={typing.type}
            placeholder={placeholder}
            autoComplete="off"
            error={error ?? typing.error ?? undefined}
            helpText={helpText}
            disabled={disabled}
            clearButton={clearable}
            onClearButtonClick={() => typing.type('')}
            connectedRight={
              <Button
                icon={CalendarIcon}
                onClick={toggle}
                disabled={disabled}
                accessibilityLabel={`${label}をカレンダーから選ぶ`}
              />
            }
          />
        }
      >
        <Box padding="300">
          <Suspense fallback={<Spinner size="small" accessibilityLabel="カレンダーを読み込み中" />}>
            {open ? (
              <DatePickerPanel
                shown={shown}
                onShownChange={setShown}
                value={value}
                min={min}
                max={max}
                onPick={pick}
              />
            ) : null}
          </Suspense>
        </Box>
      </Popover>
    </div>
  )
}

/**
 * The text of a date field and what it means: each keystroke hands the parent a day (or the
 * text that is not one yet), leaving the field shows the day as 年月日 or says what is wrong,
 * and a value changed from outside (a pick, a reset) replaces the text unless it is being typed.
 */
function useTypedDate(value: string, onChange: (value: string) => void, bounds: DateBounds) {
  const [text, setText] = useState(() => dateText(value))
  const [focused, setFocused] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (!focused) setText(dateText(value))
  }, [value, focused])

  const type = (next: string) => {
    setText(next)
    setError(null)
    const typed = readTypedDate(next, bounds)
    if (typed.kind === 'date' || typed.kind === 'outOfBounds') onChange(typed.date)
    else if (typed.kind === 'empty') onChange('')
    else onChange(next.trim())
  }

  const leave = () => {
    setFocused(false)
    const typed = readTypedDate(text, bounds)
    if (typed.kind === 'invalid') setError(typed.message)
    else setText(dateText(typed.kind === 'empty' ? '' : typed.date))
    if (typed.kind === 'outOfBounds') setError(typed.message)
  }

  const picked = (day: string) => {
    setError(null)
    setText(dateText(day))
    onChange(day)
  }

  return { text, error, type, leave, picked, setFocused }
}

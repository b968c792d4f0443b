import { TextField } from '@shopify/polaris'

/**
 * A whole-number field as the forms use it (数量, 間隔, お届け準備期間): bounds, no browser
 * autofill, the error under it; `testId` tags its wrapper for the e2e flows.
 */
export function NumberField({
  testId,
  label,
  min,
  max,
  value,
  onChange,
  error,
  suffix,
  disabled,
}: {
  testId: string
  label: string
  min: number
  max: number
  value: string
  onChange: (value: string) => void
  error?: string | undefined
  suffix?: string
  disabled?: boolean
}) {
  return (
    <div data-testid={testId}>
      <TextField
        type="number"
        label={label}
        min={min}
        max={max}
        value={value}
        onChange={onChange}
        autoComplete="off"
        {...(error ? { error } : {})}
        {...(suffix ? { suffix } : {})}
        {...(disabled ? { disabled } : {})}
      />
    </div>
  )
}

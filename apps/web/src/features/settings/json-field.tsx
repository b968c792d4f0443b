import { TextField } from '@shopify/polaris'
import type { SettingsDraft } from './settings-form.ts'

/** What `useSettingsForm().bind(field)` gives a field. */
export type Bind = (field: keyof SettingsDraft) => {
  value: string
  onChange: (value: string) => void
  error: string | undefined
  autoComplete: string
}

/** A setting typed as JSON (monospaced, four lines), with its example; errors name line and column. */
export function JsonField({
  testId,
  label,
  helpText,
  field,
  bind,
}: {
  testId: string
  label: string
  helpText: string
  field: keyof SettingsDraft
  bind: Bind
}) {
  return (
    <div data-testid={testId}>
      <TextField label={label} multiline={4} monospaced helpText={helpText} {...bind(field)} />
    </div>
  )
}

import { TextField } from '@shopify/polaris'

/**
 * An e-mail address the merchant types (a send-to, a reply-to, a filter): the browser's e-mail
 * field and keyboard, offered the merchant's own addresses unless `autoComplete` says otherwise;
 * `testId` goes on a wrapper (Polaris fields take no data-* props).
 */
export function EmailField({
  testId,
  error,
  autoComplete = 'email',
  ...field
}: {
  label: string
  value: string
  onChange: (value: string) => void
  helpText?: string
  placeholder?: string
  error?: string | null | undefined
  autoComplete?: 'email' | 'off'
  testId?: string
}) {
  const input = <TextField type="email" autoComplete={autoComplete} error={error ?? undefined} {...field} />
  return testId ? <div data-testid={testId}>{input}</div> : input
}

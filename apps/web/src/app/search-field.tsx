import { TextField } from '@shopify/polaris'
import { SearchIcon } from '@shopify/polaris-icons'

/** What a debounced search box hands its field (features/subscriptions/use-debounced-search.ts). */
type Search = { value: string; change: (value: string) => void; clear: () => void }

/**
 * The search box of every list (契約, 販売プラン, the product picker): the magnifier, a hidden
 * label for screen readers, and a clear button. `testId` tags its wrapper for the e2e flows.
 */
export function SearchField({
  id,
  label,
  placeholder,
  search,
  testId,
}: {
  id?: string
  label: string
  placeholder: string
  search: Search
  testId: string
}) {
  return (
    <div data-testid={testId}>
      <TextField
        {...(id ? { id } : {})}
        label={label}
        labelHidden
        type="search"
        autoComplete="off"
        prefix={<SearchIcon width={20} height={20} aria-hidden="true" style={{ display: 'block' }} />}
        placeholder={placeholder}
        value={search.value}
        onChange={search.change}
        clearButton
        onClearButtonClick={search.clear}
      />
    </div>
  )
}

import { Button } from '@shopify/polaris'
import { ExportIcon } from '@shopify/polaris-icons'
import { lazy, Suspense, useState } from 'react'
import { WithTestId } from '../../../app/with-test-id.tsx'
import { useHasFeature } from '../../plans/feature-gate.tsx'
import type { SearchFilters } from '../search-request.ts'

// The dialog and its checks (the contract's zod schema) load on the first click: the list is
// the landing page and must stay small.
const ExportModal = lazy(() => import('./export-modal.tsx'))
const ExportUpgradeModal = lazy(() => import('./export-upgrade-modal.tsx'))

/**
 * 「CSVエクスポート」 in the subscription list's header: opens the export dialog, starting from
 * the list's current filters; on a plan without CSV export, the upgrade prompt instead.
 */
export function ExportButton({ filters, searchText }: { filters: SearchFilters; searchText: string }) {
  const [open, setOpen] = useState(false)
  const allowed = useHasFeature('csvExport')
  return (
    <>
      <WithTestId id="export-open">
        <Button icon={ExportIcon} onClick={() => setOpen(true)}>
          CSVエクスポート
        </Button>
      </WithTestId>
      {open && !allowed ? (
        <Suspense fallback={null}>
          <ExportUpgradeModal onClose={() => setOpen(false)} />
        </Suspense>
      ) : open ? (
        <Suspense fallback={null}>
          <ExportModal filters={filters} searchText={searchText} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}

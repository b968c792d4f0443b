import { type ReactNode, useCallback, useRef, useState } from 'react'
import { ProductPickerModal } from './product-picker-modal.tsx'
import { type PickerSelection, selectionFromResourcePicker } from './product-picker-model.ts'

export type PickProducts = (options: { title: string }) => Promise<PickerSelection | null>

/** App Bridge's resource picker when the page runs inside the store admin, else undefined. */
export const appBridgePicker = () =>
  typeof window === 'undefined' ? undefined : window.shopify?.resourcePicker

/** Products and variants picked with App Bridge's resource picker; null when cancelled. */
export async function pickWithAppBridge(
  resourcePicker: NonNullable<ReturnType<typeof appBridgePicker>>,
): Promise<PickerSelection | null> {
  const picked = await resourcePicker({
    type: 'product',
    action: 'add',
    multiple: true,
    filter: { variants: true },
  })
  return selectionFromResourcePicker(picked)
}

/**
 * The one product picker of the app. Inside the store admin (App Bridge loaded), App Bridge's
 * resource picker; on the local default, where no admin surrounds the page, the app's own
 * modal of the shop's products and variants. `pick` resolves with the selection, or null when
 * the merchant cancelled; `element` must be rendered (it is the modal, or nothing).
 */
export function useProductPicker(currencyCode: string): { pick: PickProducts; element: ReactNode } {
  const [open, setOpen] = useState<{ title: string } | null>(null)
  const resolve = useRef<((selection: PickerSelection | null) => void) | null>(null)

  const pick = useCallback<PickProducts>(async ({ title }) => {
    const appBridge = typeof window === 'undefined' ? undefined : window.shopify?.resourcePicker
    if (appBridge) {
      const picked = await appBridge({
        type: 'product',
        action: 'add',
        multiple: true,
        filter: { variants: true },
      })
      return selectionFromResourcePicker(picked)
    }
    return new Promise<PickerSelection | null>((done) => {
      resolve.current = done
      setOpen({ title })
    })
  }, [])

  const finish = (selection: PickerSelection | null) => {
    resolve.current?.(selection)
    resolve.current = null
    setOpen(null)
  }

  const element = open ? (
    <ProductPickerModal
      open
      title={open.title}
      currencyCode={currencyCode}
      onClose={() => finish(null)}
      onPick={(selection) => finish(selection)}
    />
  ) : null
  return { pick, element }
}

import { Modal, Toast } from '@shopify/polaris'
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react'
import './ui-state.css'

/**
 * Global UI state (spec section 2): toasts and one modal. The resource picker and box
 * editor settings join here when their screens exist.
 */

export type ModalAction = {
  content: string
  onAction: () => void
  destructive?: boolean
  loading?: boolean
  disabled?: boolean
}

export type ModalOptions = {
  title: string
  body: ReactNode
  primaryAction: ModalAction
  secondaryActions?: ModalAction[]
  /** Called when the merchant closes the modal (close button, Escape, backdrop). */
  onClose?: () => void
}

export type ToastOptions = { error?: boolean; duration?: number }

type ToastState = { id: number; message: string; error: boolean; duration: number }

export type UiState = {
  showToast: (message: string, options?: ToastOptions) => void
  openModal: (options: ModalOptions) => void
  /** Changes the open modal (e.g. to set `loading` on its primary action). */
  updateModal: (patch: Partial<ModalOptions>) => void
  closeModal: () => void
}

const UiStateContext = createContext<UiState | null>(null)

const TOAST_DURATION_MS = 5000
/**
 * A toast with a second line (the platform's own words, 「詳細: …」) stays longer, to be read.
 * Any line break counts: importing the domain's separator would pull its translation tables
 * into the first page's bundle.
 */
const DETAILED_TOAST_DURATION_MS = 10_000

export function UiStateProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null)
  const [modal, setModal] = useState<ModalOptions | null>(null)

  const showToast = useCallback((message: string, options: ToastOptions = {}) => {
    setToast((previous) => ({
      id: (previous?.id ?? 0) + 1,
      message,
      error: options.error ?? false,
      duration: options.duration ?? (message.includes('\n') ? DETAILED_TOAST_DURATION_MS : TOAST_DURATION_MS),
    }))
  }, [])
  const dismissToast = useCallback(() => setToast(null), [])

  const openModal = useCallback((options: ModalOptions) => setModal(options), [])
  const updateModal = useCallback(
    (patch: Partial<ModalOptions>) => setModal((current) => (current ? { ...current, ...patch } : current)),
    [],
  )
  const closeModal = useCallback(() => setModal(null), [])

  const value = useMemo<UiState>(
    () => ({ showToast, openModal, updateModal, closeModal }),
    [showToast, openModal, updateModal, closeModal],
  )

  const handleModalClose = useCallback(() => {
    modal?.onClose?.()
    setModal(null)
  }, [modal])

  return (
    <UiStateContext.Provider value={value}>
      {children}
      {toast ? (
        <Toast
          key={toast.id}
          content={toast.message}
          error={toast.error}
          duration={toast.duration}
          onDismiss={dismissToast}
        />
      ) : null}
      <Modal
        open={modal !== null}
        title={modal?.title ?? ''}
        onClose={handleModalClose}
        primaryAction={modal?.primaryAction}
        secondaryActions={modal?.secondaryActions}
      >
        {modal ? <Modal.Section>{modal.body}</Modal.Section> : null}
      </Modal>
    </UiStateContext.Provider>
  )
}

export function useUiState(): UiState {
  const value = useContext(UiStateContext)
  if (!value) throw new Error('useUiState must be used inside <UiStateProvider>')
  return value
}

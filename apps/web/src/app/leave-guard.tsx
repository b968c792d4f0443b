import { Modal, Text } from '@shopify/polaris'
import { useEffect } from 'react'
import { useBlocker } from 'react-router-dom'
import { blocksNavigation, LEAVE_MESSAGE, LEAVE_TITLE } from './leave-guard-rules.ts'

/**
 * Warns before unsaved changes are lost: the browser's own prompt when the tab is closed or
 * reloaded (beforeunload), and a modal for in-app links, the menu and Back while `when` holds.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    blocksNavigation(when, currentLocation, nextLocation),
  )

  useEffect(() => {
    if (!when) return
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [when])

  // The changes were saved or discarded while the modal was open: nothing holds the way any more.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.reset()
  }, [blocker, when])

  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={LEAVE_TITLE}
      onClose={() => blocker.reset?.()}
      primaryAction={{
        content: '変更を破棄して移動',
        destructive: true,
        onAction: () => blocker.proceed?.(),
      }}
      secondaryActions={[{ content: 'このページにとどまる', onAction: () => blocker.reset?.() }]}
    >
      <Modal.Section>
        <Text as="p">{LEAVE_MESSAGE}</Text>
      </Modal.Section>
    </Modal>
  )
}

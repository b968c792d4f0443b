import { useCallback, useState } from 'react'
import { errorMessage } from './api.ts'
import { useUiState } from './ui-state.tsx'

/**
 * A button's request: which one is running (to show it busy and hold the others), and what the
 * merchant reads when it fails — the server's Japanese message, inline (`inline: true`, kept in
 * `error` until the next run) or as an error toast.
 */
export function useAction<Name extends string = 'run'>({ inline = false }: { inline?: boolean } = {}) {
  const { showToast } = useUiState()
  const [running, setRunning] = useState<Name | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(
    async (name: Name, work: () => Promise<unknown>): Promise<boolean> => {
      setRunning(name)
      setError(null)
      try {
        await work()
        return true
      } catch (cause) {
        if (inline) setError(errorMessage(cause))
        else showToast(errorMessage(cause), { error: true })
        return false
      } finally {
        setRunning(null)
      }
    },
    [inline, showToast],
  )
  return { running, busy: running !== null, error, run }
}

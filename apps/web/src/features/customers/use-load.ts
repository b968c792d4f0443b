import { useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'

export type Load<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T }

/** Loads `fetcher()` whenever `key` changes; `reload` runs it again. Stale answers are dropped. */
export function useLoad<T>(fetcher: () => Promise<T>, key: string): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `attempt` decide when to load.
  useEffect(() => {
    let cancelled = false
    setState((s) => (s.status === 'ready' && attempt > 0 ? s : { status: 'loading' }))
    fetcher().then(
      (data) => !cancelled && setState({ status: 'ready', data }),
      (error: unknown) => !cancelled && setState({ status: 'error', message: errorMessage(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [key, attempt])
  return [state, () => setAttempt((n) => n + 1)]
}

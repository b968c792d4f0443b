import { type ReactNode, useRef } from 'react'
import { useTestIds } from './use-test-ids.ts'

/** Polaris buttons take no data-* props: the test id goes on the button from a wrapper. */
export function WithTestId({ id, children }: { id: string; children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null)
  useTestIds(ref, { button: id })
  return (
    <span ref={ref} style={{ display: 'contents' }}>
      {children}
    </span>
  )
}

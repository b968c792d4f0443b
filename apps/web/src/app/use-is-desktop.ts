import { useSyncExternalStore } from 'react'

/** Desktop layout applies above 780 px (spec section 2). */
export const DESKTOP_QUERY = '(min-width: 781px)'

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(DESKTOP_QUERY)
  media.addEventListener('change', onChange)
  return () => media.removeEventListener('change', onChange)
}

const isDesktopNow = () => window.matchMedia(DESKTOP_QUERY).matches

/** Read synchronously on first render, so the layout never flips after paint. */
export function useIsDesktop(): boolean {
  return useSyncExternalStore(subscribe, isDesktopNow, () => true)
}

import { useCallback } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { buildAppHref, isExternalUrl } from './navigation.ts'
import { currentSession } from './session.ts'

export type NavigateOptions = { external?: boolean; replace?: boolean }

/** The href of an in-app page from the current location (keeps only shop and secret). */
export function useAppHref(): (target: string) => string {
  const location = useLocation()
  return useCallback(
    (target: string) => {
      const { shop, secret } = currentSession()
      return buildAppHref(target, location.search, { shop, secret })
    },
    [location.search],
  )
}

/** Navigates inside the app, or opens a new window when `external` is set. */
export function useAppNavigate(): (target: string, options?: NavigateOptions) => void {
  const navigate = useNavigate()
  const appHref = useAppHref()
  return useCallback(
    (target: string, options: NavigateOptions = {}) => {
      const href = isExternalUrl(target) ? target : appHref(target)
      if (options.external) {
        window.open(href, '_blank', 'noopener')
        return
      }
      if (isExternalUrl(href)) {
        window.location.assign(href)
        return
      }
      navigate(href, { replace: options.replace ?? false })
    },
    [appHref, navigate],
  )
}

import type { AppProviderProps } from '@shopify/polaris'
import type { ComponentProps } from 'react'
import { Link } from 'react-router-dom'
import { isExternalUrl } from './navigation.ts'
import { useAppHref } from './use-app-navigate.ts'

type LinkLikeComponentProps = ComponentProps<NonNullable<AppProviderProps['linkComponent']>>

/**
 * Polaris renders every `url` through this component: in-app paths go through the router
 * and keep shop/secret, external URLs (or `external` links) open a new window.
 */
export function AppLink({ children, url, external, target, download, ...rest }: LinkLikeComponentProps) {
  const appHref = useAppHref()
  if (external || isExternalUrl(url) || download) {
    return (
      <a
        href={url}
        target={external ? '_blank' : target}
        rel={external ? 'noopener noreferrer' : undefined}
        download={download}
        {...rest}
      >
        {children}
      </a>
    )
  }
  return (
    <Link to={appHref(url)} target={target} {...rest}>
      {children}
    </Link>
  )
}

import { Box, Button, Frame, InlineStack, Navigation } from '@shopify/polaris'
import type { ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { isNavItemSelected, NAV_ITEMS } from './nav-items.ts'
import { useIsDesktop } from './use-is-desktop.ts'

/**
 * The app chrome: a navigation sidebar on desktop (> 780 px), a compact menu on top of the
 * page otherwise. Toasts and the global modal live inside this Frame.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const isDesktop = useIsDesktop()

  const navigation = isDesktop ? (
    <Navigation location={pathname}>
      <Navigation.Section
        title="Teiki 定期購買"
        items={NAV_ITEMS.map((item) => ({
          url: item.path,
          label: item.label,
          icon: item.icon,
          selected: isNavItemSelected(item.path, pathname),
        }))}
      />
    </Navigation>
  ) : undefined

  return (
    <Frame navigation={navigation}>
      {isDesktop ? null : <CompactMenu pathname={pathname} />}
      {children}
    </Frame>
  )
}

function CompactMenu({ pathname }: { pathname: string }) {
  return (
    <nav aria-label="メニュー">
      <Box paddingInline="400" paddingBlockStart="300">
        <InlineStack gap="200">
          {NAV_ITEMS.map((item) => {
            const selected = isNavItemSelected(item.path, pathname)
            return (
              <Button
                key={item.path}
                url={item.path}
                icon={item.icon}
                variant={selected ? 'secondary' : 'tertiary'}
              >
                {item.label}
              </Button>
            )
          })}
        </InlineStack>
      </Box>
    </nav>
  )
}

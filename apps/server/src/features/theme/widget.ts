import type { WidgetMethod } from '@teiki/contract'
import { isAccessDenied, PlatformUserError } from '../../platform/errors.ts'

/**
 * How the app adds its block to a theme. `themeFilesUpsert` needs write_themes and an exemption
 * from Shopify that few apps get (shopify.dev, themeFilesUpsert); without it the platform answers
 * ACCESS_DENIED. The documented way for every app is the theme editor's deep link
 * (`addAppBlockId`), where the merchant saves the block. The app cannot ask whether it holds the
 * exemption: it tries the write, and on the refusal remembers it for the shop (migration 0035),
 * opening the editor instead for a week before trying again (an exemption can be granted later).
 */
export const THEME_FILES_DENIAL_MS = 7 * 86_400_000

/** The way ウィジェットを追加 takes now, given the platform's last refusal of a theme-file write. */
export function widgetMethod(deniedAt: Date | null, now: Date): WidgetMethod {
  return deniedAt !== null && now.getTime() - deniedAt.getTime() < THEME_FILES_DENIAL_MS
    ? 'themeEditor'
    : 'themeFiles'
}

/** The platform refused the app's theme-file write for want of access (not for the file). */
export function isThemeFilesDenied(error: unknown): boolean {
  return (
    isAccessDenied(error) ||
    (error instanceof PlatformUserError && error.userErrors.some((e) => e.code === 'ACCESS_DENIED'))
  )
}

import type { PlatformMessage, PlatformUserErrorInput } from './platform-messages.ts'

/**
 * `ErrorsWebPixelUserErrorCode` (webPixelCreate / webPixelUpdate / webPixelDelete) in Japanese.
 * Its own table: TAKEN and NOT_FOUND mean "the app's one pixel" here, not what the shared
 * table says of contracts. packages/domain/test/web-pixel-messages.test.ts holds it to the enum.
 */
export const WEB_PIXEL_ERRORS_JA: Readonly<Record<string, string>> = {
  BLANK: 'ウェブピクセルの設定値が空です。',
  TAKEN: 'このストアには、このアプリのウェブピクセルがすでにあります。',
  NOT_FOUND: 'ウェブピクセルが見つかりませんでした。もう一度接続してください。',
  INVALID_SETTINGS:
    'ウェブピクセルの設定値（アカウントIDまたは送信先URL）が、ピクセル拡張機能の設定の定義に合いません。',
  UNABLE_TO_DELETE: 'ウェブピクセルを削除できませんでした。',
  NO_EXTENSION:
    'アプリのウェブピクセル拡張機能が公開されていないため、接続できません。アプリの提供元にお問い合わせください。',
  INVALID_CONFIGURATION_JSON: 'ウェブピクセルの設定値が正しいJSONではありません。',
  INVALID_SETTINGS_DEFINITION:
    'ウェブピクセル拡張機能の設定の定義に問題があります。アプリの提供元にお問い合わせください。',
  UNEXPECTED_ERROR: 'Shopify で予期しないエラーが発生しました。しばらくしてからもう一度お試しください。',
  INVALID_RUNTIME_CONTEXT:
    'ウェブピクセル拡張機能の実行環境の設定が正しくありません。アプリの提供元にお問い合わせください。',
}

/** What an unknown web pixel code reads as (the original follows as the detail). */
export const UNKNOWN_WEB_PIXEL_ERROR_JA = 'ウェブピクセルを接続できませんでした。'

/** A refused web pixel mutation: each code's sentence once, the platform's messages as the detail. */
export function webPixelErrorsJa(errors: readonly PlatformUserErrorInput[]): PlatformMessage {
  const messages = [
    ...new Set(
      errors.map((e) => WEB_PIXEL_ERRORS_JA[e.code?.toUpperCase() ?? ''] ?? UNKNOWN_WEB_PIXEL_ERROR_JA),
    ),
  ]
  const details = [...new Set(errors.map((e) => e.message.trim()).filter((m) => m !== ''))]
  return {
    message: messages.length > 0 ? messages.join('') : UNKNOWN_WEB_PIXEL_ERROR_JA,
    detail: details.length > 0 ? details.join(' / ') : null,
  }
}

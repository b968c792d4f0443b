import { userErrorsJa, withPlatformDetail } from '@teiki/domain'
import { AppError } from '../http/app-error.ts'
import { platformBusy } from '../http/request-context.ts'
import { PlatformBusyError, PlatformUnavailableError, PlatformUserError } from './errors.ts'

/**
 * The platform's failures as a merchant reads them: one Japanese sentence per kind (busy,
 * refused with its userErrors translated, unreachable), used by every feature that calls the
 * Admin API on a merchant's behalf.
 */

/** The platform refused a write because the contract changed after the merchant's screen read it. */
export const STALE_CONTRACT =
  'この契約は、画面を開いた後に別の操作で変更されています。画面を再読み込みして最新の内容を確認してから、もう一度操作してください。'

/**
 * A refused mutation as the merchant reads it: what was refused, why in Japanese (from the
 * userErrors' codes), and the platform's own words on a 詳細 line.
 */
export function platformRefusal(label: string, error: PlatformUserError): string {
  const translated = userErrorsJa(error.userErrors)
  return withPlatformDetail({
    ...translated,
    message: `Shopify が${label}を受け付けませんでした：${translated.message}`,
  })
}

/** Platform failures as the merchant reads them; AppErrors raised by the edit pass through. */
export function platformError(error: unknown, label: string): unknown {
  if (error instanceof PlatformBusyError) {
    return platformBusy(
      error,
      `ストアのAPIが混み合っているため、${label}ができませんでした（変更はされていません）。しばらくしてからもう一度お試しください。`,
    )
  }
  if (error instanceof PlatformUserError) {
    if (error.userErrors.some((e) => e.code === 'STALE_CONTRACT')) {
      return new AppError('CONFLICT', STALE_CONTRACT, { cause: error })
    }
    return new AppError('PLATFORM_USER_ERROR', platformRefusal(label, error), { cause: error })
  }
  if (error instanceof PlatformUnavailableError) {
    return new AppError(
      'PLATFORM_UNAVAILABLE',
      `Shopify に接続できなかったため、${label}ができませんでした。しばらくしてからもう一度お試しください。`,
      { cause: error },
    )
  }
  return error
}

/** What `call` answers; its platform failures thrown as the merchant reads them (platformError). */
export async function forMerchant<T>(label: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw platformError(error, label)
  }
}

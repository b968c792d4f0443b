import { type ErrorCode, errorStatus } from '@teiki/contract'
import { zonedDayRange } from '@teiki/domain'

/** The one error type services throw; the HTTP layer turns it into `{error:{code,message}}`. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.status = errorStatus[code]
  }
}

export const unauthenticated = (message = '認証に失敗しました。アプリを開き直してください。') =>
  new AppError('UNAUTHENTICATED', message)
export const notFound = (message: string) => new AppError('NOT_FOUND', message)

/**
 * The instants of a merchant's range of calendar days in the shop's zone (either end optional);
 * INVALID_INPUT when the start is after the end (`reversed`: the message, naming the dates) or a
 * day does not exist.
 */
export function merchantDayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
  reversed = '開始日は終了日以前の日付を指定してください。',
): ReturnType<typeof zonedDayRange> {
  if (from && to && from > to) throw new AppError('INVALID_INPUT', reversed)
  try {
    return zonedDayRange(from, to, timeZone)
  } catch {
    throw new AppError('INVALID_INPUT', '存在しない日付が指定されました。')
  }
}

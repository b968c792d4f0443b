import { type ErrorCode, errorStatus } from '@teiki/contract'

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

import { z } from 'zod'

/**
 * Every error the API can answer with. The HTTP status of each code lives in one table
 * (`errorStatus`) so routes never pick statuses by hand.
 */
export const ErrorCode = {
  /** No credentials, a wrong secret or an invalid/expired session token. */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The request's query, params or body do not match the schema. */
  INVALID_INPUT: 'INVALID_INPUT',
  /** The shop may not use this feature (a per-shop flag is off, spec §6). */
  FORBIDDEN: 'FORBIDDEN',
  /** The shop's app plan does not include the feature (the message names the plan that does). */
  PLAN_REQUIRED: 'PLAN_REQUIRED',
  /** The resource does not exist in this shop (another shop's ids are "not found" too). */
  NOT_FOUND: 'NOT_FOUND',
  /** The shop is not installed or has no app plan. */
  SHOP_NOT_FOUND: 'SHOP_NOT_FOUND',
  /** A state conflict: forbidden status move or a stale update. */
  CONFLICT: 'CONFLICT',
  /** The platform refused a mutation (userErrors). */
  PLATFORM_USER_ERROR: 'PLATFORM_USER_ERROR',
  /** The platform could not be reached or kept failing. */
  PLATFORM_UNAVAILABLE: 'PLATFORM_UNAVAILABLE',
  /**
   * The shop's Admin API budget is taken (a billing run, other staff): the merchant's call was
   * not sent before the request's deadline and nothing was changed; try again shortly.
   */
  PLATFORM_BUSY: 'PLATFORM_BUSY',
  /** Anything unexpected: logged with the request id. */
  INTERNAL: 'INTERNAL',
} as const
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

export const errorStatus: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  INVALID_INPUT: 400,
  FORBIDDEN: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  SHOP_NOT_FOUND: 404,
  CONFLICT: 409,
  PLATFORM_USER_ERROR: 422,
  PLATFORM_UNAVAILABLE: 502,
  PLATFORM_BUSY: 503,
  INTERNAL: 500,
}

export const ZErrorResponse = z.object({
  error: z.object({
    code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
  }),
})
export type ErrorResponse = z.infer<typeof ZErrorResponse>

import { ApiError } from '../../src/app/api.ts'
import type { ApiState } from '../../src/app/use-api.ts'

// Request states as useApi gives them, for rendering a page's body without a server.

const idle = { data: undefined, error: undefined, isLoading: false, isValidating: false, retry: () => {} }

export const answered = <T>(data: T): ApiState<T> => ({ ...idle, data })

/** A failed request with the server's Japanese message (what the error banner shows). */
export const failed = (message: string): ApiState<never> => ({
  ...idle,
  error: new ApiError(0, 'NETWORK', message),
})

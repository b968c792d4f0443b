import type { VariantSummary } from '@teiki/contract'
import { useEffect, useState } from 'react'
import { api, errorMessage, isAbortError } from '../../../app/api.ts'
import { numericId } from './detail-format.ts'

export type { VariantSummary }

export const VARIANT_SEARCH_LIMIT = 10
export const VARIANT_SEARCH_DEBOUNCE_MS = 300

/** Variants whose product title, variant title or SKU match `query`. */
export async function searchVariants(query: string, signal?: AbortSignal): Promise<VariantSummary[]> {
  const answer = await api(
    'GET /products/variants/search',
    { query: { query, limit: VARIANT_SEARCH_LIMIT } },
    { signal },
  )
  return answer.variants ?? []
}

/**
 * The variants that may be offered: without those excluded (a swap never offers the line's own
 * variant). Ids compare by their numeric part, so GIDs and plain ids match.
 */
export function offeredVariants(
  variants: readonly VariantSummary[],
  excludedIds: readonly (string | null)[],
): VariantSummary[] {
  const excluded = new Set(excludedIds.filter((id): id is string => id !== null).map(numericId))
  return variants.filter((variant) => !excluded.has(numericId(variant.id)))
}

export type VariantSearchState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; variants: VariantSummary[] }
  | { status: 'error'; message: string }

/** Searches as the merchant types: waits for a pause, and drops answers to older queries. */
export function useVariantSearch(query: string): VariantSearchState {
  const [state, setState] = useState<VariantSearchState>({ status: 'idle' })
  useEffect(() => {
    const trimmed = query.trim()
    if (trimmed === '') {
      setState({ status: 'idle' })
      return
    }
    const controller = new AbortController()
    setState({ status: 'loading' })
    const timer = setTimeout(() => {
      searchVariants(trimmed, controller.signal).then(
        (variants) => setState({ status: 'done', variants }),
        (error: unknown) => {
          if (!isAbortError(error)) setState({ status: 'error', message: errorMessage(error) })
        },
      )
    }, VARIANT_SEARCH_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [query])
  return state
}

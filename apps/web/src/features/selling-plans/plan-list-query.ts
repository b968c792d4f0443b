/** The list's search and page in its URL (`?query=…&page=2`), so Back returns to them. */
export function parsePlanListQuery(search: string): { query: string; page: number } {
  const params = new URLSearchParams(search)
  const page = Number(params.get('page') ?? '1')
  return { query: params.get('query') ?? '', page: Number.isSafeInteger(page) && page >= 1 ? page : 1 }
}

export function planListPath({ query, page }: { query: string; page: number }): string {
  const params = new URLSearchParams()
  if (query.trim()) params.set('query', query.trim())
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return `/selling-plans${search ? `?${search}` : ''}`
}

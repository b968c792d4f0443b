import { type ConnectionArgs, connection } from './connection.ts'

/**
 * A small subset of the platform's search syntax (`query:` argument): `field:value`,
 * `field:>value` (also >=, <, <=), quoted values, `-field:value` / `NOT`, `OR` between terms
 * (AND binds tighter, as on the platform) and free text. Unknown fields are ignored, which is what
 * the platform does (it only adds a search warning).
 */
export type SearchFieldKind = 'string' | 'number' | 'date' | 'list'
export type SearchField<T> = {
  kind: SearchFieldKind
  get: (item: T) => string | number | boolean | null | readonly string[]
  /** Applied to both sides of a string comparison (phone numbers, say). */
  normalize?: (s: string) => string
}
export type SearchSpec<T> = {
  fields: Record<string, SearchField<T>>
  text?: (item: T) => string
  /** The `sortKey` values of the list's connection and what each sorts by. */
  sortKeys?: Record<string, ((item: T) => number | string) | undefined>
}

/** A property's name as the platform's search names it: `merchantCode` is `merchant_code`. */
type Snake<S extends string> = S extends `${infer C}${infer R}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<R>}`
  : S

/** Search fields read straight off the record, by kind: `merchant_code` reads `merchantCode`. */
export function fieldsByKind<T>(
  kinds: Partial<Record<SearchFieldKind, ReadonlyArray<Snake<keyof T & string>>>>,
): Record<string, SearchField<T>> {
  const fields: Record<string, SearchField<T>> = {}
  for (const [kind, names] of Object.entries(kinds) as Array<[SearchFieldKind, readonly string[]]>) {
    for (const name of names) {
      const property = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof T
      fields[name] = { kind, get: (record) => record[property] as ReturnType<SearchField<T>['get']> }
    }
  }
  return fields
}

type Dated = { createdAt: number; updatedAt: number }

/** The sort keys of a record with the platform's timestamps. */
export const datedSortKeys = <T extends Dated>() => ({
  CREATED_AT: (r: T) => r.createdAt,
  UPDATED_AT: (r: T) => r.updatedAt,
})

type Term = { field: string | null; op: '=' | '>' | '>=' | '<' | '<='; value: string; negate: boolean }

function tokenize(query: string): Array<Term | 'OR'> {
  const out: Array<Term | 'OR'> = []
  const re = /\s*(-)?(?:([A-Za-z_][\w.]*):(<=|>=|<|>)?)?(?:'([^']*)'|"([^"]*)"|([^\s()]+))/y
  let negateNext = false
  let pos = 0
  while (pos < query.length) {
    if (/[\s()]/.test(query[pos]!)) {
      pos++
      continue
    }
    re.lastIndex = pos
    const m = re.exec(query)
    if (!m) break
    pos = re.lastIndex
    const [, minus, field, op, sq, dq, bare] = m
    const value = sq ?? dq ?? bare ?? ''
    if (!field && bare === 'AND') continue
    if (!field && bare === 'OR') {
      out.push('OR')
      continue
    }
    if (!field && bare === 'NOT') {
      negateNext = true
      continue
    }
    out.push({
      field: field ? field.toLowerCase() : null,
      op: (op as Term['op']) ?? '=',
      value,
      negate: Boolean(minus) || negateNext,
    })
    negateNext = false
  }
  return out
}

const parseIdValue = (v: string) => Number(v.replace(/^gid:\/\/shopify\/\w+\//, ''))

function compare(a: number | string, b: number | string, op: Term['op']): boolean {
  switch (op) {
    case '>':
      return a > b
    case '>=':
      return a >= b
    case '<':
      return a < b
    case '<=':
      return a <= b
    default:
      return a === b
  }
}

function matchTerm<T>(item: T, term: Term, spec: SearchSpec<T>): boolean {
  if (term.field === null) {
    const text = spec.text?.(item)
    return text === undefined || text.toLowerCase().includes(term.value.toLowerCase())
  }
  const field = spec.fields[term.field]
  if (!field) return true
  const raw = field.get(item)
  if (raw === null || raw === undefined) return false
  switch (field.kind) {
    case 'number':
      return compare(Number(raw), parseIdValue(term.value), term.op)
    case 'date': {
      const bound = Date.parse(term.value)
      if (Number.isNaN(bound)) return false
      // A bare date with ':' means "that day", as merchants type it.
      if (term.op === '=' && /^\d{4}-\d{2}-\d{2}$/.test(term.value)) {
        return Number(raw) >= bound && Number(raw) < bound + 86_400_000
      }
      return compare(Number(raw), bound, term.op)
    }
    case 'list':
      return (raw as readonly string[]).some((v) => v.toLowerCase() === term.value.toLowerCase())
    default: {
      const norm = field.normalize ?? ((s: string) => s.toLowerCase())
      const have = norm(String(raw))
      const want = norm(term.value)
      if (want.endsWith('*')) return have.startsWith(want.slice(0, -1))
      return compare(have, want, term.op)
    }
  }
}

/** Compiles `query` into a predicate; null when there is nothing to filter on. */
export function compileSearch<T>(
  query: string | null | undefined,
  spec: SearchSpec<T>,
): ((item: T) => boolean) | null {
  if (!query?.trim()) return null
  const groups: Term[][] = [[]]
  for (const token of tokenize(query)) {
    if (token === 'OR') groups.push([])
    else groups.at(-1)!.push(token)
  }
  const nonEmpty = groups.filter((g) => g.length > 0)
  if (nonEmpty.length === 0) return null
  return (item) => nonEmpty.some((g) => g.every((t) => matchTerm(item, t, spec) !== t.negate))
}

export function filterBySearch<T>(
  items: readonly T[],
  query: string | null | undefined,
  spec: SearchSpec<T>,
): readonly T[] {
  const predicate = compileSearch(query, spec)
  return predicate ? items.filter(predicate) : items
}

/** A root list's connection: `items` searched by `args.query`, sorted by `args.sortKey`, paged. */
export function searchConnection<T extends { id: number }>(
  items: readonly T[],
  args: ConnectionArgs & { query?: string | null; sortKey?: string },
  spec: SearchSpec<T>,
) {
  return connection(filterBySearch(items, args.query, spec), args, {
    key: spec.sortKeys?.[args.sortKey ?? ''],
  })
}

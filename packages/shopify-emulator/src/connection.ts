import { GraphQLError } from 'graphql'

export type ConnectionArgs = {
  first?: number | null
  after?: string | null
  last?: number | null
  before?: string | null
  reverse?: boolean | null
}

export type Connection<T> = {
  nodes: T[]
  edges: Array<{ cursor: string; node: T }>
  pageInfo: {
    hasNextPage: boolean
    hasPreviousPage: boolean
    startCursor: string | null
    endCursor: string | null
  }
}

type Key = number | string
/**
 * How to order items; without `key` the input must already be sorted by id (the store's natural
 * order). `sorted`: the items are already in `key` order (sortedBy), e.g. a bulk export's list
 * sorted once for all its pages.
 */
export type ConnectionOptions<T> = { key?: (item: T) => Key; sorted?: boolean }

const MAX_PAGE = 250
/**
 * `first` a bulk operation asks with: every item. Bulk queries are the one place connections are
 * not capped, and no client request can pass this through the 250 check below.
 */
export const UNBOUNDED = 2_147_483_647

const compareKeys = (a: Key, b: Key) => (a < b ? -1 : a > b ? 1 : 0)

// Cursors carry the sort value and id, not a position, so a page walk survives inserts and
// deletes the way the platform's cursors do. base64url keeps them opaque to clients.
const encodeCursor = (key: Key | undefined, id: number) =>
  Buffer.from(JSON.stringify(key === undefined ? [id] : [id, key])).toString('base64url')

function decodeCursor(cursor: string): { id: number; key: Key | undefined } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(parsed) && typeof parsed[0] === 'number') return { id: parsed[0], key: parsed[1] }
  } catch {
    // fall through to the platform-style error below
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, {
    extensions: { code: 'BAD_REQUEST' },
  })
}

/** The items in `key` order (ties by id), or as they are without a key. */
export function sortedBy<T extends { id: number }>(items: readonly T[], keyOf?: (item: T) => Key): T[] {
  return keyOf ? [...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b)) || a.id - b.id) : (items as T[])
}

/**
 * Relay pagination over an in-memory list, shaped like the platform's connections (`nodes`,
 * `edges`, `pageInfo`). Reverse is an index view, so a 100,000-item list is never copied.
 */
export function connection<T extends { id: number }>(
  items: readonly T[],
  args: ConnectionArgs,
  opts: ConnectionOptions<T> = {},
): Connection<T> {
  const { first, last, after, before } = args
  if (first == null && last == null) {
    throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } })
  }
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value != null && value !== UNBOUNDED && (value < 0 || value > MAX_PAGE)) {
      throw new GraphQLError(`The ${name} argument must be between 0 and ${MAX_PAGE}`, {
        extensions: { code: 'BAD_REQUEST' },
      })
    }
  }
  const keyOf = opts.key
  const sorted = opts.sorted ? (items as T[]) : sortedBy(items, keyOf)
  const n = sorted.length
  const reverse = args.reverse === true
  const at = (i: number) => sorted[reverse ? n - 1 - i : i]!
  // Position of a cursor in the (possibly reversed) view: count of items ordered before it.
  const rank = (cursor: string) => {
    const c = decodeCursor(cursor)
    const cmp = (item: T) => {
      const base = (keyOf && c.key !== undefined ? compareKeys(keyOf(item), c.key) : 0) || item.id - c.id
      return reverse ? -base : base
    }
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cmp(at(mid)) < 0) lo = mid + 1
      else hi = mid
    }
    return { index: lo, exact: lo < n && cmp(at(lo)) === 0 }
  }
  let start = 0
  let end = n
  if (after) {
    const r = rank(after)
    start = r.exact ? r.index + 1 : r.index
  }
  if (before) end = Math.max(start, rank(before).index)
  if (first != null) end = Math.min(end, start + first)
  if (last != null) start = Math.max(start, end - last)

  const nodes: T[] = []
  const edges: Connection<T>['edges'] = []
  for (let i = start; i < end; i++) {
    const node = at(i)
    nodes.push(node)
    edges.push({ cursor: encodeCursor(keyOf?.(node), node.id), node })
  }
  return {
    nodes,
    edges,
    pageInfo: {
      hasNextPage: end < n,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  }
}

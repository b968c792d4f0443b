import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import type { PlatformUserError } from '../errors.ts'

// How the wrappers of platform/operations/ send their document: each file holds one document,
// named after its operation, and a wrapper that says which part of the answer it returns. The
// request itself (operation name, null checks, user errors) is written here once.

/** The name of the one operation a document defines, which is the name it is sent under. */
export function operationNameOf(document: string): string {
  const name = /\b(?:query|mutation)\s+([A-Za-z_]\w*)/.exec(document)?.[1]
  if (!name) throw new Error(`a document names its operation: ${document.slice(0, 80)}`)
  return name
}

/**
 * Sends a query and answers the value at `path` in its data (`['subscriptionContract', 'lines']`),
 * or null when the platform answered null on the way (it does not have the object).
 */
export async function queryPath<T>(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown>,
  path: readonly string[],
): Promise<T | null> {
  let value: unknown = await client.request<unknown>(operationNameOf(document), document, variables)
  for (const key of path) {
    if (value === null || value === undefined) return null
    value = (value as Record<string, unknown>)[key]
  }
  return (value ?? null) as T | null
}

/** Sends a query for one of the platform's root lists (never null) and answers it. */
export async function queryRoot<T>(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown> | undefined,
  field: string,
): Promise<T> {
  return (await client.request<Record<string, T>>(operationNameOf(document), document, variables))[field]!
}

type UserErrors = PlatformUserError['userErrors']

/** Sends a mutation: its payload (the data's one field, which names it) checked for userErrors. */
async function sendMutation<P extends { userErrors: UserErrors }>(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown>,
): Promise<{ field: string; payload: P }> {
  const data = await client.request<Record<string, P | null>>(operationNameOf(document), document, variables)
  const [field, payload] = Object.entries(data)[0] ?? [operationNameOf(document), null]
  return { field, payload: assertNoUserErrors(field, payload) }
}

/**
 * Sends a mutation and answers its payload once its `userErrors` is empty: PlatformUserError
 * when the platform refused, PlatformUnavailableError when it answered no payload.
 */
export async function mutate<P extends { userErrors: UserErrors }>(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown>,
): Promise<P> {
  return (await sendMutation<P>(client, document, variables)).payload
}

/** mutate's payload's `key` object (the changed contract, group…), which an accepted mutation always returns. */
export async function mutateReturning<T>(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown>,
  key: string,
): Promise<T> {
  type Payload = { userErrors: UserErrors } & Record<string, unknown>
  const { field, payload } = await sendMutation<Payload>(client, document, variables)
  const value = payload[key] as T | null | undefined
  if (!value) throw new Error(`${field}: no ${key} returned`)
  return value
}

/** Which page of one object's connection to read. */
export type PageOf = { id: string; first: number; after?: string | null }

/** A page of a connection: its nodes and where the next page starts. */
export type Connection<N> = { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }

/**
 * Every node of a connection: the first page as read, then the following pages from `nextPage`
 * (null when the object went away between the pages: the caller's read is stale, so null too).
 */
export async function withAllNodes<N>(
  first: Connection<N>,
  nextPage: (after: string | null) => Promise<Connection<N> | null>,
): Promise<Connection<N> | null> {
  if (!first.pageInfo.hasNextPage) return first
  const nodes = [...first.nodes]
  for (let info = first.pageInfo; info.hasNextPage; ) {
    const page = await nextPage(info.endCursor)
    if (!page) return null
    nodes.push(...page.nodes)
    info = page.pageInfo
  }
  return { nodes, pageInfo: { hasNextPage: false, endCursor: null } }
}

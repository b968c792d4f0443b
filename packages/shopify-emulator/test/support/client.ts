import { GRAPHQL_PATH } from '../../src/http.ts'

/** A minimal Admin API client over real HTTP, as the app would call the platform. */
export async function adminCall(
  url: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep response JSON; the schema checks the shapes
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token !== null) headers['x-shopify-access-token'] = token
  const res = await fetch(`${url}${GRAPHQL_PATH}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  })
  return { status: res.status, body: await res.json() }
}

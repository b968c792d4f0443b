import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const TAGS_ADD = /* GraphQL */ `
  mutation TagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      node { ... on Customer { id tags updatedAt } }
      userErrors { field message }
    }
  }
`

export type TaggedCustomer = { id: string; tags: string[]; updatedAt: string }

type TagsPayload = {
  node: TaggedCustomer | null
  userErrors: Array<{ field: string[] | null; message: string }>
}

/** Adds tags to a customer; answers the customer's tags after it. PlatformUserError when refused. */
export async function addCustomerTags(
  client: AdminClient,
  id: string,
  tags: string[],
): Promise<TaggedCustomer> {
  const data = await client.request<{ tagsAdd: TagsPayload | null }>('TagsAdd', TAGS_ADD, { id, tags })
  assertNoUserErrors('tagsAdd', data.tagsAdd)
  return tagged(data.tagsAdd, id)
}

/** The customer the answer names; a node of another type is the platform not tagging a customer. */
export function tagged(payload: TagsPayload | null, id: string): TaggedCustomer {
  const node = payload?.node
  if (!node || node.id !== id || !Array.isArray(node.tags))
    throw new Error(`tags answer without customer ${id}`)
  return node
}

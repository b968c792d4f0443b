import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'
import { type TaggedCustomer, tagged } from './tags-add.ts'

export const TAGS_REMOVE = /* GraphQL */ `
  mutation TagsRemove($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) {
      node { ... on Customer { id tags updatedAt } }
      userErrors { field message }
    }
  }
`

/** Removes tags from a customer; answers the customer's tags after it. PlatformUserError when refused. */
export async function removeCustomerTags(
  client: AdminClient,
  id: string,
  tags: string[],
): Promise<TaggedCustomer> {
  const data = await client.request<{
    tagsRemove: {
      node: TaggedCustomer | null
      userErrors: Array<{ field: string[] | null; message: string }>
    } | null
  }>('TagsRemove', TAGS_REMOVE, { id, tags })
  assertNoUserErrors('tagsRemove', data.tagsRemove)
  return tagged(data.tagsRemove, id)
}

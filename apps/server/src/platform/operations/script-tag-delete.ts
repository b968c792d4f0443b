import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

export const SCRIPT_TAG_DELETE = /* GraphQL */ `
  mutation ScriptTagDelete($id: ID!) {
    scriptTagDelete(id: $id) {
      deletedScriptTagId
      userErrors { field message }
    }
  }
`

type Payload = {
  deletedScriptTagId: string | null
  userErrors: Array<{ field: string[] | null; message: string }>
}

/** Deletes a script tag (GID); PlatformUserError when refused (an unknown id, another app's tag). */
export async function deleteScriptTag(client: AdminClient, id: string): Promise<string | null> {
  const data = await client.request<{ scriptTagDelete: Payload | null }>(
    'ScriptTagDelete',
    SCRIPT_TAG_DELETE,
    { id },
  )
  return assertNoUserErrors('scriptTagDelete', data.scriptTagDelete).deletedScriptTagId
}

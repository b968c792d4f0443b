import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

/** Writes metafields; the app's own (owner: its installation) are read by the theme's app blocks. */
export const METAFIELDS_SET = /* GraphQL */ `
  mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id }
      userErrors { code field message }
    }
  }
`

export type MetafieldInput = { ownerId: string; namespace: string; key: string; type: 'json'; value: string }

/** PlatformUserError on userErrors (a value over the size limit, an unknown owner). */
export async function setMetafields(client: AdminClient, metafields: MetafieldInput[]): Promise<void> {
  const data = await client.request<{
    metafieldsSet: {
      metafields: Array<{ id: string }> | null
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('MetafieldsSet', METAFIELDS_SET, { metafields })
  assertNoUserErrors('metafieldsSet', data.metafieldsSet)
}

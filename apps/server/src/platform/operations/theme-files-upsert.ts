import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

/** Writes text files into a theme (templates, sections); userErrors when the platform refuses one. */
export const THEME_FILES_UPSERT = /* GraphQL */ `
  mutation ThemeFilesUpsert($themeId: ID!, $files: [OnlineStoreThemeFilesUpsertFileInput!]!) {
    themeFilesUpsert(themeId: $themeId, files: $files) {
      upsertedThemeFiles { filename }
      userErrors { code field filename message }
    }
  }
`

type Payload = {
  upsertedThemeFiles: Array<{ filename: string }> | null
  userErrors: Array<{ code: string | null; field: string[] | null; filename: string | null; message: string }>
}

/** Upserts `files` (name → text) into the theme (GID); PlatformUserError when refused. */
export async function upsertThemeFiles(
  client: AdminClient,
  themeId: string,
  files: Array<{ filename: string; content: string }>,
): Promise<string[]> {
  const data = await client.request<{ themeFilesUpsert: Payload | null }>(
    'ThemeFilesUpsert',
    THEME_FILES_UPSERT,
    {
      themeId,
      files: files.map((f) => ({ filename: f.filename, body: { type: 'TEXT', value: f.content } })),
    },
  )
  const payload = assertNoUserErrors('themeFilesUpsert', data.themeFilesUpsert)
  return (payload.upsertedThemeFiles ?? []).map((f) => f.filename)
}

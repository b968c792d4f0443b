import type { AdminClient } from '../admin-client.ts'

/**
 * A theme and the text of some of its files (`filenames`: exact names; at most a few, so the
 * answer stays small). A file the theme does not have is missing from the answer.
 */
export const THEME_FILES = /* GraphQL */ `
  query ThemeFiles($id: ID!, $filenames: [String!]!) {
    theme(id: $id) {
      id
      name
      role
      files(filenames: $filenames, first: 5) {
        nodes { filename body { ... on OnlineStoreThemeFileBodyText { content } } }
      }
    }
  }
`

export type ThemeWithFiles = { id: string; name: string; role: string; files: Map<string, string> }

type Answer = {
  theme: {
    id: string
    name: string
    role: string
    files: { nodes: Array<{ filename: string; body: { content?: string } }> } | null
  } | null
}

/** The theme (GID) with the named files' text, or null when the shop has no such theme. */
export async function fetchThemeFiles(
  client: AdminClient,
  id: string,
  filenames: string[],
): Promise<ThemeWithFiles | null> {
  const data = await client.request<Answer>('ThemeFiles', THEME_FILES, { id, filenames })
  if (!data.theme) return null
  const files = new Map<string, string>()
  for (const f of data.theme.files?.nodes ?? []) {
    if (typeof f.body.content === 'string') files.set(f.filename, f.body.content)
  }
  return { id: data.theme.id, name: data.theme.name, role: data.theme.role, files }
}

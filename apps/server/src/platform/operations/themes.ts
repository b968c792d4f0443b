import type { AdminClient } from '../admin-client.ts'

/** The shop's themes (a shop keeps at most 20 in its library), published first. */
export const THEMES = /* GraphQL */ `
  query Themes {
    themes(first: 20) { nodes { id name role } }
  }
`

export type PlatformTheme = { id: string; name: string; role: string }

export async function fetchThemes(client: AdminClient): Promise<PlatformTheme[]> {
  const data = await client.request<{ themes: { nodes: PlatformTheme[] } | null }>('Themes', THEMES)
  return data.themes?.nodes ?? []
}

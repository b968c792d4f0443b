import type { AdminClient } from '../admin-client.ts'

/** The app's script tags (an app sees only its own); a shop rarely has more than a handful. */
export const SCRIPT_TAGS = /* GraphQL */ `
  query ScriptTags {
    scriptTags(first: 100) { nodes { id src displayScope createdAt } }
  }
`

export type PlatformScriptTag = { id: string; src: string; displayScope: string; createdAt: string }

export async function fetchScriptTags(client: AdminClient): Promise<PlatformScriptTag[]> {
  const data = await client.request<{ scriptTags: { nodes: PlatformScriptTag[] } }>('ScriptTags', SCRIPT_TAGS)
  return data.scriptTags.nodes
}

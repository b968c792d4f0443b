/** Global ids as the platform writes them: gid://shopify/<Type>/<number>. */
export const toGid = (type: string, id: number | string): string => `gid://shopify/${type}/${id}`

export function parseGid(gid: string): { type: string; id: number } | null {
  const m = /^gid:\/\/shopify\/(\w+)\/(\d+)(?:\?.*)?$/.exec(gid)
  return m ? { type: m[1]!, id: Number(m[2]) } : null
}

/** The numeric id of `gid` when it names `type`; null for a foreign or malformed id. */
export function idOf(gid: string, type: string): number | null {
  const parsed = parseGid(gid)
  return parsed && parsed.type === type ? parsed.id : null
}

/** `gid://shopify/SubscriptionContract/123` → `123`. The mirror keys rows by the number. */
export function idFromGid(gid: string): string {
  const id = gid.slice(gid.lastIndexOf('/') + 1).split('?')[0] ?? ''
  if (!/^\d+$/.test(id)) throw new Error(`not a numeric GID: ${gid}`)
  return id
}

export function maybeIdFromGid(gid: string | null | undefined): string | null {
  return gid ? idFromGid(gid) : null
}

export function toGid(type: string, id: string | number): string {
  return `gid://shopify/${type}/${id}`
}

/**
 * The id part of any GID, numeric or not: `gid://shopify/SubscriptionLine/a1b2-…` → `a1b2-…`
 * (subscription line ids are UUID-like on the platform).
 */
export function lineIdOf(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1)
}

/**
 * The platform's bulk file: one JSON line per node; the nodes of a nested connection get their own
 * lines after their parent, carrying `__parentId`, and the connection field leaves the parent.
 */
type Json = Record<string, unknown>

function connectionNodes(value: unknown): Json[] | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const v = value as { edges?: unknown; nodes?: unknown }
  if (Array.isArray(v.edges)) return v.edges.map((e) => (e as { node: Json }).node)
  if (Array.isArray(v.nodes)) return v.nodes as Json[]
  return null
}

function emit(node: Json, parentId: unknown, out: string[]): void {
  const own: Json = {}
  const children: Json[] = []
  for (const [k, v] of Object.entries(node)) {
    const nested = connectionNodes(v)
    if (nested) children.push(...nested)
    else own[k] = v
  }
  if (parentId !== undefined) own.__parentId = parentId
  out.push(JSON.stringify(own))
  for (const child of children) emit(child, node.id, out)
}

/** JSONL of (a page of) a bulk query's data; `data` has one root field, a connection. */
export function toJsonl(data: Json): { text: string; objectCount: number; rootObjectCount: number } {
  const out: string[] = []
  let rootObjectCount = 0
  for (const value of Object.values(data)) {
    const roots = connectionNodes(value) ?? []
    rootObjectCount += roots.length
    for (const node of roots) emit(node, undefined, out)
  }
  return { text: out.length > 0 ? `${out.join('\n')}\n` : '', objectCount: out.length, rootObjectCount }
}

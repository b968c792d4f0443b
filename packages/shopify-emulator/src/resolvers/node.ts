import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { parseGid } from '../gid.ts'
import { isReadableOrder } from '../order-access.ts'
import type { OrderRecord } from '../records.ts'
import { findById } from '../store.ts'
import { nodeTables } from './lookup.ts'

function resolveNode(gid: string, ctx: Context) {
  const parsed = parseGid(gid)
  const table = parsed && nodeTables[parsed.type]
  if (!parsed || !table) return null
  const record = findById(table(ctx.shop), parsed.id)
  // An order older than the app may read is not there (order-access.ts).
  if (parsed.type === 'Order' && record && !isReadableOrder(ctx, record as OrderRecord)) return null
  // Records do not carry __typename (it would cost a field per order); add it for the Node type.
  return record ? { ...record, __typename: parsed.type } : null
}

export const nodeResolvers: ResolverMap = {
  QueryRoot: {
    node: (_s, args, ctx: Context) => resolveNode(args.id, ctx),
    nodes: (_s, args, ctx: Context) => (args.ids as string[]).map((id) => resolveNode(id, ctx)),
  },
}

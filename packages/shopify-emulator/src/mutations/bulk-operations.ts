import type { ResolverMap } from '../attach-resolvers.ts'
import { prepareBulkQuery, runBulkQuery } from '../bulk/bulk-query.ts'
import { toJsonl } from '../bulk/jsonl.ts'
import type { Context } from '../context.ts'
import type { BulkOperationRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { userError } from './common.ts'

/** Where a finished operation's file is served (by this emulator's HTTP server). */
export const bulkFilePath = (domain: string, id: number) => `/bulk/${encodeURIComponent(domain)}/${id}.jsonl`

export const bulkFileKey = (domain: string, id: number) => `${domain}/${id}`

export const bulkOperationResolvers: ResolverMap = {
  QueryRoot: {
    currentBulkOperation: (_s, args: { type?: string | null }, ctx: Context) => {
      const type = args.type ?? 'QUERY'
      return extraOf(ctx.shop, ctx.now()).bulkOperations.findLast((b) => b.type === type) ?? null
    },
  },
  Mutation: {
    bulkOperationRunQuery: (_s, args: { query: string }, ctx: Context, info) => {
      const extra = extraOf(ctx.shop, ctx.now())
      if (extra.bulkOperations.some((b) => b.status === 'CREATED' || b.status === 'RUNNING')) {
        const msg = 'A bulk query operation for this app and shop is already in progress'
        return { bulkOperation: null, userErrors: [userError(null, msg, 'OPERATION_IN_PROGRESS')] }
      }
      const doc = prepareBulkQuery(info.schema, args.query)
      if (Array.isArray(doc)) {
        return { bulkOperation: null, userErrors: doc.map((m) => userError(['query'], m, 'INVALID')) }
      }
      const op: BulkOperationRecord = {
        id: newId(ctx.shop, 'BulkOperation'),
        query: args.query,
        type: 'QUERY',
        status: 'CREATED',
        createdAt: Math.floor(ctx.now() / 1000) * 1000,
        completedAt: null,
        objectCount: 0,
        rootObjectCount: 0,
        fileSize: null,
        url: null,
        errorCode: null,
      }
      extra.bulkOperations.push(op)
      ctx.store.changed()
      const domain = ctx.shop.info.myshopifyDomain
      ctx.runtime.later(0, () => {
        op.status = 'RUNNING'
      })
      ctx.runtime.later(ctx.runtime.bulkDelayMs, async () => {
        try {
          const chunks: Buffer[] = []
          let objectCount = 0
          let rootObjectCount = 0
          await runBulkQuery(info.schema, doc, ctx, (data) => {
            const page = toJsonl(data)
            if (page.text) chunks.push(Buffer.from(page.text))
            objectCount += page.objectCount
            rootObjectCount += page.rootObjectCount
          })
          ctx.runtime.bulkFiles.set(bulkFileKey(domain, op.id), chunks)
          Object.assign(op, {
            status: 'COMPLETED',
            objectCount,
            rootObjectCount,
            fileSize: chunks.reduce((n, c) => n + c.length, 0),
            // The platform gives no URL for an empty result.
            url: objectCount > 0 ? `${ctx.runtime.baseUrl()}${bulkFilePath(domain, op.id)}` : null,
          })
        } catch {
          Object.assign(op, { status: 'FAILED', errorCode: 'INTERNAL_SERVER_ERROR' })
        }
        op.completedAt = Math.floor(ctx.now() / 1000) * 1000
        ctx.store.changed()
      })
      return { bulkOperation: op, userErrors: [] }
    },
  },
}

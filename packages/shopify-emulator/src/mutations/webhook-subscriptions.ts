import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import { API_VERSION } from '../http.ts'
import type { WebhookSubscriptionRecord } from '../records-extra.ts'
import { extraOf, newId } from '../shop-extra.ts'
import { topicFromEnum, topicToEnum } from '../webhooks/topics.ts'
import { deleteRecord, lookup, userError } from './common.ts'

type SubscriptionInput = {
  format?: 'JSON' | 'XML' | null
  includeFields?: string[] | null
  filter?: string | null
}

/**
 * The 2025-04 `WebhookSubscriptionInput` has no URL field, so subscriptions made through GraphQL
 * point at the emulator's configured `webhooks.callbackUrl` (as app-specific webhooks point at the
 * URL in shopify.app.toml). Tests that need another URL use `emulator.webhooks.subscribe`.
 */
const SUBSCRIPTIONS = {
  key: 'webhookSubscriptions',
  type: 'WebhookSubscription',
  missing: 'Webhook subscription does not exist',
} as const

export const webhookSubscriptionResolvers: ResolverMap = {
  QueryRoot: {
    webhookSubscriptions: (_s, args: { topics?: string[] | null; first?: number }, ctx: Context) => {
      let subs = extraOf(ctx.shop, ctx.now()).webhookSubscriptions
      if (args.topics) {
        const wanted = new Set(args.topics.map(topicFromEnum))
        subs = subs.filter((s) => wanted.has(s.topic))
      }
      return connection(subs, args)
    },
    webhookSubscription: (_s, args: { id: string }, ctx: Context) =>
      lookup(extraOf(ctx.shop, ctx.now()).webhookSubscriptions, args.id, 'WebhookSubscription') ?? null,
  },
  WebhookSubscription: {
    topic: (s: WebhookSubscriptionRecord) => topicToEnum(s.topic),
    endpoint: (s: WebhookSubscriptionRecord) => ({
      __typename: 'WebhookHttpEndpoint',
      callbackUrl: s.callbackUrl,
    }),
    apiVersion: () => ({ handle: API_VERSION, displayName: API_VERSION, supported: true }),
  },
  Mutation: {
    webhookSubscriptionCreate: (
      _s,
      args: { topic: string; webhookSubscription: SubscriptionInput },
      ctx: Context,
    ) => {
      const url = ctx.runtime.webhookCallbackUrl
      const fail = (field: string[], message: string) => ({
        webhookSubscription: null,
        userErrors: [userError(field, message, null)],
      })
      if (!url)
        return fail(
          ['webhookSubscription'],
          'No callback URL: the emulator was started without webhooks.callbackUrl',
        )
      const topic = topicFromEnum(args.topic)
      const extra = extraOf(ctx.shop, ctx.now())
      if (extra.webhookSubscriptions.some((s) => s.topic === topic && s.callbackUrl === url))
        return fail(['webhookSubscription', 'callbackUrl'], 'Address for this topic has already been taken')
      const input = args.webhookSubscription
      const now = Math.floor(ctx.now() / 1000) * 1000
      const sub: WebhookSubscriptionRecord = {
        id: newId(ctx.shop, 'WebhookSubscription'),
        topic,
        callbackUrl: url,
        format: input.format ?? 'JSON',
        includeFields: input.includeFields ?? [],
        filter: input.filter ?? null,
        createdAt: now,
        updatedAt: now,
      }
      extra.webhookSubscriptions.push(sub)
      ctx.store.changed()
      return { webhookSubscription: sub, userErrors: [] }
    },
    webhookSubscriptionDelete: (_s, args: { id: string }, ctx: Context) => {
      const { deleted, userErrors } = deleteRecord(ctx, args.id, SUBSCRIPTIONS)
      return { deletedWebhookSubscriptionId: deleted, userErrors }
    },
  },
}

import { PIXEL_BODY_LIMIT, ZErrorResponse, ZPixelAck, ZPixelBatch } from '@teiki/contract'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { AppError } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createIngestQueue } from './ingest-queue.ts'
import { pixelAuthenticator } from './pixel-auth.ts'
import { createPixelConnector, type PixelConnector } from './pixel-connection.ts'
import { createTrafficService, hitRows } from './service.ts'

const tags = ['traffic']

export type TrafficRouteOptions = {
  /** The app's public URL the pixel sends to (read at each call: locally known once listening). */
  publicUrl?: () => string | undefined
}

/** The shop's web pixel connector, as the routes and the install hook (http/app.ts) share it. */
export function trafficPixelConnector(app: AppInstance, opts: TrafficRouteOptions = {}): PixelConnector {
  return createPixelConnector({
    db: app.db,
    clients: app.shopClients,
    publicUrl: opts.publicUrl ?? (() => app.platformOptions.appUrl),
  })
}

/** Spec §7 "Traffic" (screen 流入元) and the web pixel's ingest endpoint. */
export function trafficRoutes(app: AppInstance, opts: TrafficRouteOptions = {}): void {
  const traffic = createTrafficService({ db: app.db })
  const pixel = trafficPixelConnector(app, opts)
  app.route({
    ...tableRoute('GET /traffic-actuation', {
      tags,
      summary: '流入元ごとのアクセス数・成果数（定期契約）・成果率',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => traffic.report(request.shop, request.query),
  })
  app.route({
    ...tableRoute('GET /traffic-actuation/condition', {
      tags,
      summary: '流入元レポートの絞り込みに使える値',
    }),
    handler: (request) => traffic.conditions(request.shop),
  })
  app.route({
    ...tableRoute('GET /traffic/pixel-settings', {
      tags,
      summary: 'ウェブピクセルの設定（アカウントIDと送信先）と接続状態（未接続なら接続する）',
    }),
    handler: (request) => pixel.read(request.shop),
  })
  app.route({
    ...tableRoute('POST /traffic/pixel-connection', {
      tags,
      summary: 'ウェブピクセルを接続し直す（webPixelCreate／webPixelUpdate）',
      errors: { 409: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse, 503: ZErrorResponse },
    }),
    handler: (request) => pixel.ensure(request.shop),
  })
  ingestRoute(app)
  // The attribution of tracked checkouts runs on the job queue: jobs/traffic-jobs.ts.
}

function ingestRoute(app: AppInstance): void {
  const queue = createIngestQueue(app.db)
  const authenticate = pixelAuthenticator(app.db)
  app.addHook('onClose', async () => queue.drain())
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>()
    // The pixel posts with sendBeacon/fetch as text/plain (no CORS preflight); JSON is taken too.
    scope.removeContentTypeParser('text/plain')
    scope.addContentTypeParser(
      ['text/plain', 'application/json'],
      { parseAs: 'string' },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string))
        } catch {
          done(new AppError('INVALID_INPUT', '本文が JSON ではありません。'), undefined)
        }
      },
    )
    // A callback hook, not an async one: no promise per hit.
    scope.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('access-control-allow-origin', '*')
      done(null, payload)
    })
    scope.options(
      '/pixel/events',
      { schema: { hide: true }, config: { auth: 'public' } },
      async (_request, reply) =>
        reply
          .header('access-control-allow-methods', 'POST')
          .header('access-control-allow-headers', 'content-type')
          .header('access-control-max-age', '86400')
          .status(204)
          .send(),
    )
    scope.post(
      '/pixel/events',
      {
        bodyLimit: PIXEL_BODY_LIMIT,
        // Thousands of hits a second: no access log line per hit (errors are still logged).
        config: { auth: 'pixel', accessLog: false },
        schema: {
          tags,
          summary: 'ウェブピクセルのイベント受信',
          body: ZPixelBatch,
          response: { 200: ZPixelAck },
        },
        onRequest: async (request) => {
          request.pixelShopId = await authenticate(request)
        },
      },
      (request) => queue.push(hitRows(request.pixelShopId, request.body.events)),
    )
  })
}

declare module 'fastify' {
  interface FastifyRequest {
    pixelShopId: string
  }
}

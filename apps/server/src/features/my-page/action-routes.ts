import {
  ZDeliveryAddress,
  ZDeliveryTime,
  ZErrorResponse,
  ZMyPageActionResponse,
  ZMyPageCancelBody,
  ZMyPageDateBody,
  ZMyPagePauseBody,
  ZMyPageQuantityBody,
  ZMyPageSwapBody,
} from '@teiki/contract'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError, unauthenticated } from '../../http/app-error.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import type { SubscriberActions } from './actions.ts'
import { formTokenValid } from './form-token.ts'
import { myPageHtml } from './page.ts'
import { pageOptions } from './routes.ts'
import { subscriberContracts } from './service.ts'

type Action = {
  body: z.ZodType
  run: (
    a: SubscriberActions,
    shop: ShopRow,
    customer: string,
    contract: string,
    body: never,
  ) => Promise<unknown>
}

/** One change: its body's schema and its call, typed together. */
const act = <S extends z.ZodType>(
  body: S,
  run: (
    a: SubscriberActions,
    shop: ShopRow,
    customer: string,
    contract: string,
    b: z.infer<S>,
  ) => Promise<unknown>,
): Action => ({ body, run: run as Action['run'] })

const NONE = z.object({})

/** Each change's path, body and call: one table for the JSON API and the page's forms. */
const ACTIONS = {
  skip: act(NONE, (a, s, c, id) => a.skip(s, c, id)),
  pause: act(ZMyPagePauseBody, (a, s, c, id, b) => a.pause(s, c, id, b.cycles)),
  resume: act(NONE, (a, s, c, id) => a.resume(s, c, id)),
  date: act(ZMyPageDateBody, (a, s, c, id, b) => a.moveDate(s, c, id, b.date)),
  quantity: act(ZMyPageQuantityBody, (a, s, c, id, b) => a.quantity(s, c, id, b.lineId, b.quantity)),
  swap: act(ZMyPageSwapBody, (a, s, c, id, b) => a.swap(s, c, id, b.lineId, b.variantId)),
  slot: act(z.object({ deliveryTime: ZDeliveryTime }), (a, s, c, id, b) => a.slot(s, c, id, b.deliveryTime)),
  address: act(z.object({ address: ZDeliveryAddress }), (a, s, c, id, b) => a.address(s, c, id, b.address)),
  'card-mail': act(NONE, (a, s, c, id) => a.cardMail(s, c, id)),
  cancel: act(ZMyPageCancelBody, (a, s, c, id, b) => a.cancel(s, c, id, b.reasonId, b.decision)),
}

type ActionName = keyof typeof ACTIONS
const ZParams = z.object({
  contractId: z.string().regex(/^\d{1,20}$/, '定期便の指定が正しくありません'),
  action: z.enum(Object.keys(ACTIONS) as [ActionName, ...ActionName[]], { error: 'この操作はありません' }),
})

function signedInCustomer(request: FastifyRequest): string {
  if (request.proxyCustomer === null)
    throw unauthenticated('マイページをご覧になるには、ストアのアカウントにログインしてください。')
  return request.proxyCustomer
}

/** Runs `action` with `body` checked by its schema (400 with the first problem in Japanese). */
function perform(
  actions: SubscriberActions,
  request: FastifyRequest,
  params: z.infer<typeof ZParams>,
  body: unknown,
) {
  const customer = signedInCustomer(request)
  const spec = ACTIONS[params.action]
  const parsed = spec.body.safeParse(body ?? {})
  if (!parsed.success)
    throw new AppError('INVALID_INPUT', parsed.error.issues[0]?.message ?? '入力が正しくありません')
  return spec.run(actions, request.shop, customer, params.contractId, parsed.data as never)
}

/**
 * マイページ's changes through the app proxy (route auth `proxy`): the JSON API the customer
 * account page and scripts call (`application/json` only, which a form on another site cannot
 * send), and the page's own forms (`application/x-www-form-urlencoded` with the form token),
 * answered with the page and the result on it.
 */
export function myPageActionRoutes(app: AppInstance, actions: SubscriberActions): void {
  app.register(async (plugin) => {
    plugin.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))))
      },
    )
    const scope = plugin.withTypeProvider<ZodTypeProvider>()
    scope.post(
      '/proxy/api/subscriptions/:contractId/:action',
      {
        config: { auth: 'proxy' },
        schema: {
          tags: ['my-page'],
          summary: 'マイページ: お客様ご自身の定期便の変更（スキップ・お休み・日付・数量・商品・配送・解約）',
          params: ZParams,
          response: {
            200: ZMyPageActionResponse,
            400: ZErrorResponse,
            401: ZErrorResponse,
            404: ZErrorResponse,
            409: ZErrorResponse,
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store')
        if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
          throw new AppError('INVALID_INPUT', 'JSON で送信してください')
        return (await perform(actions, request, request.params, request.body)) as never
      },
    )
    scope.post(
      '/proxy/my-page/:contractId/:action',
      {
        config: { auth: 'proxy' },
        schema: {
          tags: ['my-page'],
          summary: 'マイページのフォームからの変更（結果をページに表示）',
          params: ZParams,
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store').type('application/liquid; charset=utf-8')
        const customer = signedInCustomer(request)
        const form = (request.body ?? {}) as Record<string, string>
        let notice: { ok: boolean; text: string } | undefined
        let offer: { contractId: string; reasonId: string; label: string } | undefined
        if (!formTokenValid(request.shop, customer, form.token)) {
          notice = {
            ok: false,
            text: 'ページの有効期限が切れました。ページを開き直してから、もう一度お試しください。',
          }
        } else {
          try {
            const done = (await perform(
              actions,
              request,
              request.params,
              formBody(request.params.action, form),
            )) as { message: string; offer?: { label: string } }
            if (done.offer) {
              offer = {
                contractId: request.params.contractId,
                reasonId: String(form.reasonId),
                label: done.offer.label,
              }
            } else notice = { ok: true, text: done.message }
          } catch (error) {
            if (!(error instanceof AppError) || error.status >= 500) throw error
            notice = { ok: false, text: error.message }
          }
        }
        const answer = await subscriberContracts(app.db, request.shop, customer)
        return myPageHtml(answer, pageOptions(request, customer, notice, offer))
      },
    )
  })
}

/** A form's fields as the action's body (the address form sends its fields flat). */
function formBody(action: ActionName, form: Record<string, string>): unknown {
  if (action !== 'address') return form
  const { token: _token, ...address } = form
  return { address }
}

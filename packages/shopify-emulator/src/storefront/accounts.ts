import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { readBody } from '../http.ts'
import { type CartRequest, redirect, sendHtml } from './cart-request.ts'
import { escapeHtml } from './layout.ts'

/**
 * Customers signing in to the emulated store, as new customer accounts do on the platform: no
 * password, a one-time link sent to the customer's e-mail. The emulator has no mail of its own,
 * so the page that would say 「メールを送信しました」 shows the link itself (a known difference,
 * docs/platform-fidelity.md). The session is this store's cookie; the app learns who is signed
 * in only as the app proxy's `logged_in_customer_id`.
 */

export type Sessions = {
  /** session cookie → the signed-in customer of a shop */
  signedIn: Map<string, { shop: string; customerId: number }>
  /** one-time login token → customer, until it is used or 15 minutes pass */
  links: Map<string, { shop: string; customerId: number; until: number }>
}

export const createSessions = (): Sessions => ({ signedIn: new Map(), links: new Map() })

const SESSION_COOKIE = 'customer_session'
const LINK_TTL_MS = 15 * 60_000

export const sessionToken = (req: IncomingMessage) =>
  new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([0-9a-f]{32})(?:;|$)`).exec(req.headers.cookie ?? '')?.[1]

/** The customer signed in to this shop's store in this browser, or null. */
export function signedInCustomer(sessions: Sessions, shop: string, req: IncomingMessage): number | null {
  const token = sessionToken(req)
  const session = token ? sessions.signedIn.get(token) : undefined
  return session && session.shop === shop ? session.customerId : null
}

const loginForm = (base: string, message = '') => `<h1>ログイン</h1>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${base}/account/login" style="max-width:28rem">
  <label class="field">メールアドレス<input type="email" name="email" required autocomplete="email"></label>
  <button type="submit" class="button">ログイン用のリンクを送る</button>
</form>`

async function login(r: CartRequest, sessions: Sessions): Promise<void> {
  const { req, res, ctx, base, page, cookie } = r
  if (req.method === 'GET') {
    sendHtml(res, 200, page('ログイン', loginForm(base)), cookie)
    return
  }
  const email = (new URLSearchParams(await readBody(req)).get('email') ?? '').trim().toLowerCase()
  const customer = ctx.shop.customers.find((c) => c.email?.toLowerCase() === email && c.state !== 'DISABLED')
  // The same answer whether or not the address is a customer's (nobody learns who is one);
  // only a customer's page carries the link the mail would have carried.
  let link = ''
  if (customer) {
    const token = randomBytes(16).toString('hex')
    sessions.links.set(token, {
      shop: ctx.shop.info.myshopifyDomain,
      customerId: customer.id,
      until: ctx.now() + LINK_TTL_MS,
    })
    link = `<div class="notice"><p>（エミュレーター: 本来はメールで届くリンクをここに表示しています）</p>
<p><a href="${base}/account/login/${token}" data-login-link>ログインする</a></p></div>`
  }
  const body = `<h1>メールを確認してください</h1><p>入力されたメールアドレスがこのストアのお客様のものであれば、ログイン用のリンクをお送りしました。リンクの有効期限は15分です。</p>${link}`
  sendHtml(res, 200, page('ログイン', body), cookie)
}

function useLink(r: CartRequest, sessions: Sessions, token: string): void {
  const { res, ctx, base, page, cookie } = r
  const link = sessions.links.get(token)
  sessions.links.delete(token)
  if (!link || link.shop !== ctx.shop.info.myshopifyDomain || link.until < ctx.now()) {
    sendHtml(
      res,
      410,
      page(
        'ログイン',
        loginForm(base, 'このリンクは使用済みか、有効期限が切れています。もう一度お試しください。'),
      ),
      cookie,
    )
    return
  }
  const session = randomBytes(16).toString('hex')
  sessions.signedIn.set(session, { shop: link.shop, customerId: link.customerId })
  redirect(
    res,
    `${base}/apps/teiki/my-page`,
    `${SESSION_COOKIE}=${session}; Path=${base}; HttpOnly; SameSite=Lax`,
  )
}

function logout(r: CartRequest, sessions: Sessions): void {
  const token = sessionToken(r.req)
  if (token) sessions.signedIn.delete(token)
  redirect(r.res, `${r.base}/`, `${SESSION_COOKIE}=; Path=${r.base}; Max-Age=0; HttpOnly; SameSite=Lax`)
}

/** Serves /account/login, its links and /account/logout; false for any other path. */
export async function handleAccountPaths(r: CartRequest, sessions: Sessions): Promise<boolean> {
  if (r.path === '/account/login') {
    await login(r, sessions)
    return true
  }
  const link = /^\/account\/login\/([0-9a-f]{32})$/.exec(r.path)
  if (link && r.req.method === 'GET') {
    useLink(r, sessions, link[1]!)
    return true
  }
  if (r.path === '/account/logout') {
    logout(r, sessions)
    return true
  }
  return false
}

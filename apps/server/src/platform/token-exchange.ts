import { PlatformUnavailableError } from './errors.ts'

export const TOKEN_EXCHANGE_PATH = '/admin/oauth/access_token'

export type ExchangedToken = { accessToken: string; scopes: string[] }

/**
 * Token exchange (shopify.dev, "Exchange a session token for an access token"): the embedded
 * app's session token buys the shop's offline Admin API token. This is how a managed install
 * gets its token; no OAuth redirect is involved.
 */
export async function exchangeSessionToken(opts: {
  origin: string
  apiKey: string
  apiSecret: string
  sessionToken: string
  fetch?: typeof fetch
}): Promise<ExchangedToken> {
  const doFetch = opts.fetch ?? fetch
  const response = await doFetch(`${opts.origin.replace(/\/$/, '')}${TOKEN_EXCHANGE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      client_id: opts.apiKey,
      client_secret: opts.apiSecret,
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: opts.sessionToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
    }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (!response.ok) {
    const reason =
      typeof body?.error_description === 'string' ? body.error_description : `HTTP ${response.status}`
    throw new PlatformUnavailableError(`token exchange: ${reason}`, response.status)
  }
  if (typeof body?.access_token !== 'string' || body.access_token === '') {
    throw new PlatformUnavailableError('token exchange: no access_token in the answer', response.status)
  }
  const scope = typeof body.scope === 'string' ? body.scope : ''
  return {
    accessToken: body.access_token,
    scopes: scope
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  }
}

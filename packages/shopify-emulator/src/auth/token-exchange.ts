import { verifySessionToken } from './session-token.ts'

export const TOKEN_EXCHANGE_PATH = '/admin/oauth/access_token'
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange'
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token'
const OFFLINE = 'urn:shopify:params:oauth:token-type:offline-access-token'

export type ExchangeResult = { status: number; body: Record<string, unknown> }

/** Form or JSON, as OAuth clients send either. */
export function parseTokenRequest(text: string, contentType: string | undefined): Record<string, string> {
  if (contentType?.includes('application/json')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>
      return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]))
    } catch {
      return {}
    }
  }
  return Object.fromEntries(new URLSearchParams(text))
}

const oauthError = (status: number, error: string, description: string): ExchangeResult => ({
  status,
  body: { error, error_description: description },
})

/**
 * Token exchange (shopify.dev, "Exchange a session token for an access token"): a valid session
 * token of this app buys the shop's offline token, installing the app on first use.
 */
export function exchangeToken(
  params: Record<string, string>,
  app: { apiKey: string; apiSecret: string },
  install: (shop: string) => { accessToken: string; scopes: string[] },
): ExchangeResult {
  if (params.client_id !== app.apiKey || params.client_secret !== app.apiSecret)
    return oauthError(401, 'invalid_client', 'Client credentials are invalid')
  if (params.grant_type !== GRANT)
    return oauthError(400, 'unsupported_grant_type', 'The grant type is not supported')
  if (params.subject_token_type !== ID_TOKEN)
    return oauthError(400, 'invalid_request', 'subject_token_type must be an id_token')
  if (params.requested_token_type !== undefined && params.requested_token_type !== OFFLINE)
    return oauthError(400, 'invalid_request', 'Only offline access tokens are issued by the emulator')
  if (!params.subject_token) return oauthError(400, 'invalid_request', 'subject_token is missing')
  const verified = verifySessionToken(params.subject_token, app)
  if ('error' in verified)
    return oauthError(400, 'invalid_subject_token', `Session token is invalid: ${verified.error}`)
  const { accessToken, scopes } = install(verified.shop)
  return { status: 200, body: { access_token: accessToken, scope: scopes.join(',') } }
}

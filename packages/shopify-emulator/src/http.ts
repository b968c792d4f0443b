import type { IncomingMessage, ServerResponse } from 'node:http'

export const API_VERSION = '2025-04'
export const GRAPHQL_PATH = `/admin/api/${API_VERSION}/graphql.json`
/** The platform's exact body for a missing or unknown access token. */
export const INVALID_TOKEN_BODY = {
  errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-shopify-api-version': API_VERSION,
  })
  res.end(text)
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

import { GraphQLError } from 'graphql'
import type { Context } from './context.ts'

/**
 * The platform's answer to a field the app may not use: a top-level GraphQL error
 * `ACCESS_DENIED` ("Access denied for <field> field. Required access: …") and the field null
 * (shopify.dev, "API access scopes"; the same shape for protected fields such as
 * themeFilesUpsert without the theme-file exemption).
 */
export function accessDenied(field: string, requiredAccess: string): GraphQLError {
  return new GraphQLError(`Access denied for ${field} field. Required access: ${requiredAccess}`, {
    extensions: {
      code: 'ACCESS_DENIED',
      documentation: 'https://shopify.dev/api/usage/access-scopes',
      requiredAccess,
    },
  })
}

/** Whether the installation's scopes cover `scope` (a write scope implies its read scope). */
export function hasScope(ctx: Context, scope: string): boolean {
  const granted = ctx.shop.installation.scopes
  return granted.includes(scope) || (scope.startsWith('read_') && granted.includes(`write_${scope.slice(5)}`))
}

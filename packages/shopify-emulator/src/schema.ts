import { readFileSync } from 'node:fs'
import { buildSchema, type GraphQLSchema } from 'graphql'
import { attachResolvers, type ResolverMap } from './attach-resolvers.ts'
import { mergeResolvers, queryResolvers } from './resolvers/index.ts'

/** Path of the generated subset SDL (see scripts/extract-schema.ts). */
export const schemaPath = new URL('./schema.graphql', import.meta.url)

export const schemaSdl = (): string => readFileSync(schemaPath, 'utf8')

/**
 * Builds a fresh executable schema. Each call builds its own so resolvers attached for one
 * emulator (extra maps from later issues, fault injection) never leak into another.
 */
export function createSchema(extra: ResolverMap[] = []): GraphQLSchema {
  return attachResolvers(buildSchema(schemaSdl()), mergeResolvers(queryResolvers, ...extra))
}

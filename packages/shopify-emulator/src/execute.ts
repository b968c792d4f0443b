import {
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  parse,
  validate,
} from 'graphql'
import type { Context } from './context.ts'
import { queryCost } from './cost.ts'
import { type LeakyBucket, MAX_SINGLE_QUERY_COST, type ThrottleStatus } from './throttle.ts'

export type GraphqlRequest = {
  query: string
  variables?: Record<string, unknown> | null
  operationName?: string | null
}

export type CostExtension = {
  requestedQueryCost: number
  actualQueryCost: number | null
  throttleStatus: ThrottleStatus
}

export type GraphqlResponse = {
  data?: Record<string, unknown> | null
  errors?: GraphQLFormattedError[]
  extensions: { cost: CostExtension }
}

export type CallLogEntry = {
  shop: string
  operationName: string | null
  /** Root fields of the operation (`subscriptionContractPause`), what tests usually assert on. */
  rootFields: string[]
  variables: Record<string, unknown>
  at: Date
  /** The calculated cost asked up front, and what the answer took (null: not run). */
  requestedCost?: number
  actualCost?: number | null
}

type Run = {
  schema: GraphQLSchema
  context: Context
  bucket: LeakyBucket
  request: GraphqlRequest
  /** The `throttleNext` fault: answer THROTTLED whatever the bucket holds. */
  forceThrottle?: boolean
}

const format = (errors: readonly GraphQLError[]) => errors.map((e) => e.toJSON())

/**
 * One Admin API call: parse, validate, price, throttle, execute, then refund the difference
 * between requested and actual cost, as the platform does.
 */
export async function runGraphql({ schema, context, bucket, request, forceThrottle }: Run): Promise<{
  response: GraphqlResponse
  log: CallLogEntry | null
}> {
  const now = context.now()
  const variables = request.variables ?? {}
  const cost = (requested: number, actual: number | null): { cost: CostExtension } => ({
    cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status(now) },
  })
  let document: ReturnType<typeof parse>
  try {
    document = parse(request.query)
  } catch (e) {
    const error = e instanceof GraphQLError ? e : new GraphQLError(String(e))
    return { response: { errors: format([error]), extensions: cost(0, 0) }, log: null }
  }
  const invalid = validate(schema, document)
  if (invalid.length > 0) return { response: { errors: format(invalid), extensions: cost(0, 0) }, log: null }
  const operation = getOperationAST(document, request.operationName ?? undefined)
  if (!operation) {
    const error = new GraphQLError('An operation name is required when the document has several operations')
    return { response: { errors: format([error]), extensions: cost(0, 0) }, log: null }
  }
  const log: CallLogEntry = {
    shop: context.shop.info.myshopifyDomain,
    operationName: request.operationName ?? operation.name?.value ?? null,
    rootFields: operation.selectionSet.selections.flatMap((s) => (s.kind === 'Field' ? [s.name.value] : [])),
    variables,
    at: new Date(now),
  }
  const requested = queryCost(schema, document, operation, variables)
  log.requestedCost = requested
  log.actualCost = null
  if (requested > MAX_SINGLE_QUERY_COST) {
    const error = new GraphQLError(
      `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_SINGLE_QUERY_COST}).`,
      { extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: MAX_SINGLE_QUERY_COST } },
    )
    return { response: { errors: format([error]), extensions: cost(requested, null) }, log }
  }
  if (forceThrottle || !bucket.take(requested, now)) {
    const error = new GraphQLError('Throttled', {
      extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
    })
    return { response: { errors: format([error]), extensions: cost(requested, null) }, log }
  }
  const result: ExecutionResult = await execute({
    schema,
    document,
    contextValue: context,
    variableValues: variables,
    operationName: request.operationName ?? undefined,
  })
  const data = (result.data ?? null) as Record<string, unknown> | null
  // Not capped by the requested cost: a list no argument sizes may return more than the one item
  // it was priced at up front, and the bucket pays the difference (cost.ts).
  const actual = queryCost(schema, document, operation, variables, data)
  bucket.refund(requested - actual, now)
  log.actualCost = actual
  const response: GraphqlResponse = { data, extensions: cost(requested, actual) }
  if (result.errors?.length) response.errors = format(result.errors)
  return { response, log }
}

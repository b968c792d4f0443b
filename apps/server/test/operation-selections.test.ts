import { type FieldNode, Kind, type OperationDefinitionNode, parse, print } from 'graphql'
import { describe, expect, it } from 'vitest'
import { inlineFragments } from '../src/platform/operations/fragments.ts'
import { SELLING_PLAN_GROUP } from '../src/platform/operations/selling-plan-group.ts'
import { SELLING_PLAN_GROUPS_PAGE } from '../src/platform/operations/selling-plan-groups-page.ts'
import { SUBSCRIPTION_CONTRACT } from '../src/platform/operations/subscription-contract.ts'
import { SUBSCRIPTION_CONTRACTS_PAGE } from '../src/platform/operations/subscription-contracts-page.ts'

// The webhook handlers refetch single objects and write them with the same record mappers as
// the sync pages; both must ask for the same fields or the two paths would write different rows.
// They share fragments; the fields are compared with those expanded, so the test holds whatever
// fragments each document spreads.

/** The operation's first root field, with the fragments spread in it expanded in place. */
function rootField(document: string): FieldNode {
  const operation = parse(inlineFragments(document)).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  )!
  return operation.selectionSet.selections[0] as FieldNode
}

/** The selection of `nodes` under the page's connection field. */
function nodesSelection(pageDocument: string): string {
  const nodes = rootField(pageDocument).selectionSet!.selections.find(
    (s): s is FieldNode => s.kind === 'Field' && s.name.value === 'nodes',
  )!
  return print(nodes.selectionSet!)
}

describe('single-object operations select what the sync pages select', () => {
  it('subscriptionContract(id) = subscriptionContracts nodes, less the orders the pages add', () => {
    const page = parse(`{ x ${nodesSelection(SUBSCRIPTION_CONTRACTS_PAGE)} }`)
    const pageFields = (
      (page.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode
    ).selectionSet!.selections as FieldNode[]
    const withoutOrders = pageFields.filter((f) => f.name.value !== 'orders')
    expect(withoutOrders.length).toBe(pageFields.length - 1)
    expect(print(rootField(SUBSCRIPTION_CONTRACT).selectionSet!)).toBe(
      print({ kind: Kind.SELECTION_SET, selections: withoutOrders }),
    )
  })

  it('sellingPlanGroup(id) = sellingPlanGroups nodes', () => {
    expect(print(rootField(SELLING_PLAN_GROUP).selectionSet!)).toBe(nodesSelection(SELLING_PLAN_GROUPS_PAGE))
  })
})

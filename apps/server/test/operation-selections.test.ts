import { type FieldNode, type OperationDefinitionNode, parse, print } from 'graphql'
import { describe, expect, it } from 'vitest'
import { SELLING_PLAN_GROUP } from '../src/platform/operations/selling-plan-group.ts'
import { SELLING_PLAN_GROUPS_PAGE } from '../src/platform/operations/selling-plan-groups-page.ts'
import { SUBSCRIPTION_CONTRACT } from '../src/platform/operations/subscription-contract.ts'
import { SUBSCRIPTION_CONTRACTS_PAGE } from '../src/platform/operations/subscription-contracts-page.ts'

// The webhook handlers refetch single objects and write them with the same record mappers as
// the sync pages; both must ask for the same fields or the two paths would write different rows.

function rootField(document: string): FieldNode {
  const operation = parse(document).definitions.find(
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
  it('subscriptionContract(id) = subscriptionContracts nodes', () => {
    expect(print(rootField(SUBSCRIPTION_CONTRACT).selectionSet!)).toBe(
      nodesSelection(SUBSCRIPTION_CONTRACTS_PAGE),
    )
  })

  it('sellingPlanGroup(id) = sellingPlanGroups nodes', () => {
    expect(print(rootField(SELLING_PLAN_GROUP).selectionSet!)).toBe(nodesSelection(SELLING_PLAN_GROUPS_PAGE))
  })
})

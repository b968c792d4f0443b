import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { mutateReturning } from './requests.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

/** Creates a group with its plans (and first products); answers the group as the mirror keeps it. */
export const SELLING_PLAN_GROUP_CREATE = withFragments(/* GraphQL */ `
  mutation SellingPlanGroupCreate($input: SellingPlanGroupInput!, $resources: SellingPlanGroupResourceInput) {
    sellingPlanGroupCreate(input: $input, resources: $resources) {
      sellingPlanGroup { ...SellingPlanGroupFields }
      userErrors { code field message }
    }
  }
`)

/** The created group; PlatformUserError when the platform refuses the input. */
export function createSellingPlanGroup(
  client: AdminClient,
  input: Record<string, unknown>,
  resources: { productIds: string[]; productVariantIds: string[] },
) {
  const variables = { input, resources }
  return mutateReturning<PlatformSellingPlanGroup>(
    client,
    SELLING_PLAN_GROUP_CREATE,
    variables,
    'sellingPlanGroup',
  )
}

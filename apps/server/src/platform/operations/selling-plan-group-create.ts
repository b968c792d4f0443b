import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
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

type UserErrors = Array<{ code: string | null; field: string[] | null; message: string }>

/** The created group; PlatformUserError when the platform refuses the input. */
export async function createSellingPlanGroup(
  client: AdminClient,
  input: Record<string, unknown>,
  resources: { productIds: string[]; productVariantIds: string[] },
): Promise<PlatformSellingPlanGroup> {
  const data = await client.request<{
    sellingPlanGroupCreate: {
      sellingPlanGroup: PlatformSellingPlanGroup | null
      userErrors: UserErrors
    } | null
  }>('SellingPlanGroupCreate', SELLING_PLAN_GROUP_CREATE, { input, resources })
  const payload = assertNoUserErrors('sellingPlanGroupCreate', data.sellingPlanGroupCreate)
  if (!payload.sellingPlanGroup) throw new Error('sellingPlanGroupCreate answered no group')
  return payload.sellingPlanGroup
}

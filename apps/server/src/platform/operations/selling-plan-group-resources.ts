import type { AdminClient } from '../admin-client.ts'
import { mutate } from './requests.ts'
import { SELLING_PLAN_GROUP_ADD_PRODUCT_VARIANTS } from './selling-plan-group-add-product-variants.ts'
import { SELLING_PLAN_GROUP_ADD_PRODUCTS } from './selling-plan-group-add-products.ts'
import { SELLING_PLAN_GROUP_REMOVE_PRODUCT_VARIANTS } from './selling-plan-group-remove-product-variants.ts'
import { SELLING_PLAN_GROUP_REMOVE_PRODUCTS } from './selling-plan-group-remove-products.ts'

// The four mutations that add products or variants to a group or remove them (each document in
// its own file) take the same variables: the group and up to 250 ids (the platform's input cap).

/** Sends `document` for the group and ids; PlatformUserError when the platform refuses. */
const resourceChange =
  (document: string) =>
  async (client: AdminClient, groupId: string, ids: string[]): Promise<void> => {
    await mutate(client, document, { id: groupId, ids })
  }

export const addProducts = resourceChange(SELLING_PLAN_GROUP_ADD_PRODUCTS)
export const addProductVariants = resourceChange(SELLING_PLAN_GROUP_ADD_PRODUCT_VARIANTS)
export const removeProducts = resourceChange(SELLING_PLAN_GROUP_REMOVE_PRODUCTS)
export const removeProductVariants = resourceChange(SELLING_PLAN_GROUP_REMOVE_PRODUCT_VARIANTS)

import type { AdminClient } from '../admin-client.ts'
import { queryPath } from './requests.ts'

/** A group's first 30 products (spec §9), for a box's detail. */
export const SELLING_PLAN_GROUP_PRODUCTS = /* GraphQL */ `
  query SellingPlanGroupProducts($id: ID!) {
    sellingPlanGroup(id: $id) {
      products(first: 30) { nodes { id title handle featuredImage { url } } }
    }
  }
`

export type PlatformGroupProduct = {
  id: string
  title: string
  handle: string
  featuredImage: { url: string } | null
}

/** The group's first 30 products, or null when the platform does not have the group. */
export function fetchSellingPlanGroupProducts(client: AdminClient, id: string) {
  const path = ['sellingPlanGroup', 'products', 'nodes']
  return queryPath<PlatformGroupProduct[]>(client, SELLING_PLAN_GROUP_PRODUCTS, { id }, path)
}

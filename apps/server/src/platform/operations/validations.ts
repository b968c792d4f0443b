import type { AdminClient } from '../admin-client.ts'
import { queryRoot } from './requests.ts'

/** The shop's cart and checkout validations (at most 25 are active), with the function each runs. */
export const VALIDATIONS = /* GraphQL */ `
  query Validations {
    validations(first: 50) {
      nodes {
        id
        enabled
        shopifyFunction {
          id
        }
      }
    }
  }
`

export type Validation = { id: string; enabled: boolean; shopifyFunction: { id: string } }

export async function fetchValidations(client: AdminClient): Promise<Validation[]> {
  return (await queryRoot<{ nodes: Validation[] }>(client, VALIDATIONS, undefined, 'validations')).nodes
}

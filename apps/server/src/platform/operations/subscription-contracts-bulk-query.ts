import { inlineFragments } from './fragments.ts'

// The initial sync's export of contracts with their lines and orders; see customers-bulk-query.ts
// for how bulk queries differ from the paginated ones they mirror (and why their fragments are
// expanded in place). The lines' pricing policies come along (a bulk export costs no points per
// object): the billing engine prices the first charges from them instead of reading them
// contract by contract.

/** Contract ids from `from` to `to`, both included: one part of an export split by id. */
export type ContractIdRange = { from: number; to: number }

/**
 * The export of every contract, or of the contracts of one id range (the platform's search
 * syntax, `id:>=… id:<=…`; a bulk query takes no variables, and the bounds are integers).
 */
export function subscriptionContractsBulkQuery(range: ContractIdRange | null = null): string {
  if (range && !(Number.isSafeInteger(range.from) && Number.isSafeInteger(range.to)))
    throw new Error(`contract id range must be integers: ${range.from}..${range.to}`)
  const args = range ? `(query: "id:>=${range.from} id:<=${range.to}")` : ''
  return inlineFragments(/* GraphQL */ `
  query SubscriptionContractsBulk {
    subscriptionContracts${args} {
      edges {
        node {
          ...ContractFields
          lines {
            edges {
              node {
                ...LineFields
                pricingPolicy { ...LinePricingPolicyFields }
              }
            }
          }
          orders {
            edges {
              node { ...OrderFields }
            }
          }
        }
      }
    }
  }
`)
}

export const SUBSCRIPTION_CONTRACTS_BULK_QUERY = subscriptionContractsBulkQuery()

import { inlineFragments } from './fragments.ts'

// The initial sync's export of customers, run with bulkOperationRunQuery (not sent as queries themselves).
// Bulk queries take every object: no `first`/`after`, nested connections become JSONL lines
// carrying `__parentId` after their parent. The node fields are the fragments of the paginated
// queries (customers-page.ts, subscription-contracts-page.ts), expanded in place (see
// inlineFragments in fragments.ts for why a bulk query carries no fragment definitions), so
// both paths write the same mirror rows through the same mappers; test/sync-bulk.test.ts
// checks they stay equal. Lines
// and orders are not cut here: the caps in the paginated query are only there to bound its
// cost. A contract's lines and orders both come as its child lines (`__parentId`); the sync
// tells them apart by their GID type. Three connections, two levels: within the platform's
// limits for bulk queries (five connections, two levels of nesting).

export const CUSTOMERS_BULK_QUERY = inlineFragments(/* GraphQL */ `
  query CustomersBulk {
    customers {
      edges {
        node { ...CustomerFields }
      }
    }
  }
`)

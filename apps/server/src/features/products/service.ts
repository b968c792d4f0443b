import type { VariantSummary } from '@teiki/contract'
import type { DbClient } from '../../db/pool.ts'
import { findVariant } from './repo.ts'

// What the products feature offers the others (they may not read its repository).

/** One variant of the shop's mirror, or undefined. */
export function variantSummary(
  db: DbClient,
  shopId: string,
  variantId: string,
): Promise<VariantSummary | undefined> {
  return findVariant(db, shopId, variantId)
}

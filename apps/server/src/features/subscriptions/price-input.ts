import { priceInputProblem } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'

/**
 * A price the merchant typed must be chargeable in the contract's currency: whole yen for JPY
 * (issue 12). Checked against the mirror's currency before any platform call; a contract the
 * mirror lacks is left to the edit's own 404.
 */
export async function requireChargeablePrice(
  db: DbClient,
  shop: ShopRow,
  contractId: string,
  price: string | undefined,
): Promise<void> {
  if (price === undefined) return
  const { rows } = await db.query<{ currency_code: string }>(
    'select currency_code from subscription_contracts where shop_id = $1 and id = $2',
    [shop.id, contractId],
  )
  const currency = rows[0]?.currency_code
  const problem = currency ? priceInputProblem(price, currency) : null
  if (problem) throw new AppError('INVALID_INPUT', problem)
}

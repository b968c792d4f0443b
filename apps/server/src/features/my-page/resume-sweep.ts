import type { Db } from '../../db/pool.ts'
import { findShopById } from '../../platform/shops-repo.ts'
import type { ContractActions } from '../subscriptions/actions-service.ts'
import { duePauses, endPause } from './pauses-repo.ts'

/**
 * Ends the subscribers' pauses whose time has come (a day before the billing they paused until):
 * a contract still PAUSED is resumed through the same status action as a merchant's 再開 (the
 * platform first, then the mirror, its history entry and the 再開 mail); one resumed or cancelled
 * by someone else meanwhile only loses its pause row. A failure leaves the row for the next run.
 */
export async function resumeDuePauses(
  deps: { db: Db; actions: ContractActions; log?: { warn(obj: object, msg: string): void } },
  now: Date,
  limit = 200,
): Promise<{ resumed: number; ended: number }> {
  let resumed = 0
  let ended = 0
  for (const pause of await duePauses(deps.db, now, limit)) {
    try {
      if (pause.status === 'PAUSED') {
        const shop = await findShopById(deps.db, pause.shop_id)
        if (!shop) continue
        await deps.actions.run(shop, 'resume', {
          contractId: pause.contract_id,
          customerId: pause.customer_id,
        })
        resumed++
      } else ended++
      await endPause(deps.db, pause.shop_id, pause.contract_id)
    } catch (error) {
      deps.log?.warn(
        { err: error, contractId: pause.contract_id },
        'pause not resumed; left for the next run',
      )
    }
  }
  return { resumed, ended }
}

import type { Db } from '../db/pool.ts'
import { createBoxService } from '../features/boxes/service.ts'
import { putCycleDiscounts } from '../features/selling-plans/cycle-discounts-service.ts'
import { seedDemoTraffic } from '../features/traffic/demo-history.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { claimSeed, forgetSeed, groupByCode } from './repo.ts'
import { seedCancellationReasons, seedSegments } from './story.ts'

/**
 * What the demo shop needs from the app itself, beside the emulator's data (issue 13 item 6,
 * issue 22 item 5): the later cycles' discounts of 回数割定期便 (the emulator's
 * `teiki-demo-multi` group; the platform holds only its first cycle's 30% off), a box of
 * 選べる詰め合わせ (`teiki-demo-box`), the traffic history, the shop's cancellation reasons with
 * the reason of each cancelled contract, and a few segments. Each seed is made once per shop
 * (demo_seeds), after the first sync that brought its group: a merchant who deletes the demo box
 * does not get it back. A data folder from before these groups existed has neither, and nothing
 * is seeded.
 */
export const DEMO_MULTI_CODE = 'teiki-demo-multi'
export const DEMO_BOX_CODE = 'teiki-demo-box'

/** Runs `make` unless the seed `name` was made already; a failed seed is forgotten, to be made next time. */
async function seedOnce(db: Db, shop: ShopRow, name: string, make: () => Promise<string>) {
  if (!(await claimSeed(db, shop.id, name))) return null
  try {
    return await make()
  } catch (error) {
    await forgetSeed(db, shop.id, name)
    throw error
  }
}

export async function seedDemoAppData(db: Db, shop: ShopRow, clients: ShopClients): Promise<string[]> {
  const seeded: Array<string | null> = []
  const multi = await groupByCode(db, shop.id, DEMO_MULTI_CODE)
  if (multi?.planId) {
    const planId = multi.planId
    seeded.push(
      await seedOnce(db, shop, 'multi-discounts', async () => {
        await putCycleDiscounts({ db, clients }, shop, planId, {
          adjustmentType: 'PERCENTAGE',
          cycleDiscounts: [
            { cycle: 1, value: 30 },
            { cycle: 2, value: 20 },
            { cycle: 4, value: 10 },
          ],
        })
        return '回数割定期便の回数ごとの割引'
      }),
    )
  }
  const boxGroup = await groupByCode(db, shop.id, DEMO_BOX_CODE)
  if (!boxGroup) return seeded.filter((s) => s !== null)
  seeded.push(
    await seedOnce(db, shop, 'box', async () => {
      const boxes = createBoxService({ db, clients })
      const box = await boxes.create(shop, { name: '選べる詰め合わせボックス' })
      // Field by field, as the editor saves them.
      await boxes.update(shop, box.id, { sellingPlanGroupId: boxGroup.groupId })
      await boxes.update(shop, box.id, { maxSelection: 5 })
      await boxes.update(shop, box.id, { minSelection: 3 })
      return 'ボックス「選べる詰め合わせボックス」'
    }),
    // Traffic history (issue 14), once the contracts are in the mirror: GENERATED, not measured
    // (labelled so in traffic_generated_history and on 流入元); from today on the web pixel measures.
    await seedOnce(db, shop, 'traffic-history', async () => {
      const attributed = await seedDemoTraffic(db, shop.id)
      return `流入元の履歴（生成データ: 昨日まで、契約 ${attributed} 件に流入元）`
    }),
    await seedOnce(db, shop, 'cancellation-reasons', async () => {
      const given = await seedCancellationReasons(db, shop)
      return `解約理由（解約 ${given} 件に理由）`
    }),
    // After the traffic history: a segment by source needs the contracts' attributions.
    await seedOnce(db, shop, 'segments', async () => `セグメント ${await seedSegments(db, shop)} 件`),
  )
  return seeded.filter((s) => s !== null)
}

import type { Db } from '../db/pool.ts'
import { createBoxService } from '../features/boxes/service.ts'
import { putCycleDiscounts } from '../features/selling-plans/cycle-discounts-service.ts'
import type { ShopRow } from '../features/shops/repo.ts'
import type { ShopClients } from '../features/subscriptions/shop-client.ts'
import { seedDemoTraffic } from '../features/traffic/demo-history.ts'
import { claimSeed, forgetSeed, groupByCode } from './repo.ts'

/**
 * What the demo shop needs from the app itself, beside the emulator's data (issue 13 item 6):
 * the later cycles' discounts of 回数割定期便 (the emulator's `teiki-demo-multi` group; the
 * platform holds only its first cycle's 30% off) and a box of 選べる詰め合わせ
 * (`teiki-demo-box`). Each seed is made once per shop (demo_seeds), after the first sync that
 * brought its group: a merchant who deletes the demo box does not get it back. A data folder
 * from before these groups existed has neither, and nothing is seeded.
 */
export const DEMO_MULTI_CODE = 'teiki-demo-multi'
export const DEMO_BOX_CODE = 'teiki-demo-box'

export async function seedDemoAppData(db: Db, shop: ShopRow, clients: ShopClients): Promise<string[]> {
  const seeded: string[] = []
  const multi = await groupByCode(db, shop.id, DEMO_MULTI_CODE)
  if (multi?.planId && (await claimSeed(db, shop.id, 'multi-discounts'))) {
    try {
      await putCycleDiscounts({ db, clients }, shop, multi.planId, {
        adjustmentType: 'PERCENTAGE',
        cycleDiscounts: [
          { cycle: 1, value: 30 },
          { cycle: 2, value: 20 },
          { cycle: 4, value: 10 },
        ],
      })
      seeded.push('回数割定期便の回数ごとの割引')
    } catch (error) {
      await forgetSeed(db, shop.id, 'multi-discounts')
      throw error
    }
  }
  const boxGroup = await groupByCode(db, shop.id, DEMO_BOX_CODE)
  if (boxGroup && (await claimSeed(db, shop.id, 'box'))) {
    try {
      const boxes = createBoxService({ db, clients })
      const box = await boxes.create(shop, { name: '選べる詰め合わせボックス' })
      // Field by field, as the editor saves them.
      await boxes.update(shop, box.id, { sellingPlanGroupId: boxGroup.groupId })
      await boxes.update(shop, box.id, { maxSelection: 5 })
      await boxes.update(shop, box.id, { minSelection: 3 })
      seeded.push('ボックス「選べる詰め合わせボックス」')
    } catch (error) {
      await forgetSeed(db, shop.id, 'box')
      throw error
    }
  }
  // Traffic history (issue 14), once the contracts are in the mirror: GENERATED, not measured
  // (labelled so in traffic_generated_history and on 流入元); from today on the web pixel measures.
  if (boxGroup && (await claimSeed(db, shop.id, 'traffic-history'))) {
    try {
      const attributed = await seedDemoTraffic(db, shop.id)
      seeded.push(`流入元の履歴（生成データ: 昨日まで、契約 ${attributed} 件に流入元）`)
    } catch (error) {
      await forgetSeed(db, shop.id, 'traffic-history')
      throw error
    }
  }
  return seeded
}

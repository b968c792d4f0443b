import type { MyPageSettings } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'

/** The shop's saved 設定 › マイページ, or null when it never saved any. */
export async function findMyPageSettings(db: DbClient, shopId: string): Promise<MyPageSettings | null> {
  const { rows } = await db.query<{ actions: MyPageSettings['actions']; lock_days: number }>(
    'select actions, lock_days from my_page_settings where shop_id = $1',
    [shopId],
  )
  const row = rows[0]
  return row ? { actions: row.actions, lockDays: row.lock_days } : null
}

export async function saveMyPageSettings(db: DbClient, shopId: string, s: MyPageSettings): Promise<void> {
  await db.query(
    `insert into my_page_settings (shop_id, actions, lock_days) values ($1, $2, $3)
     on conflict (shop_id) do update set actions = excluded.actions, lock_days = excluded.lock_days,
       updated_at = now()`,
    [shopId, JSON.stringify(s.actions), s.lockDays],
  )
}

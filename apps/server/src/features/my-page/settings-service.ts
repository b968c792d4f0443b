import type { MyPageSettingsResponse } from '@teiki/contract'
import { DEFAULT_MY_PAGE_SETTINGS, type MyPageSettings, myPageSettingsProblem } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import { forgetShopContext } from './context-cache.ts'
import { findMyPageSettings, saveMyPageSettings } from './settings-repo.ts'

/**
 * 設定 › マイページ (issue 26): what the shop saved, or the defaults (every change allowed, no
 * change in the 3 days before a billing). A switch a later version added reads as its default.
 */
export async function myPageSettingsOf(db: DbClient, shopId: string): Promise<MyPageSettings> {
  const saved = await findMyPageSettings(db, shopId)
  if (!saved) return DEFAULT_MY_PAGE_SETTINGS
  return { actions: { ...DEFAULT_MY_PAGE_SETTINGS.actions, ...saved.actions }, lockDays: saved.lockDays }
}

export async function getMyPageSettings(db: DbClient, shopId: string): Promise<MyPageSettingsResponse> {
  return { settings: await myPageSettingsOf(db, shopId) }
}

export async function putMyPageSettings(
  db: DbClient,
  shopId: string,
  settings: MyPageSettings,
): Promise<MyPageSettingsResponse> {
  const problem = myPageSettingsProblem(settings)
  if (problem) throw new AppError('INVALID_INPUT', problem)
  await saveMyPageSettings(db, shopId, settings)
  forgetShopContext(shopId)
  return getMyPageSettings(db, shopId)
}

import type { AppPlanKey } from '@teiki/contract'
import { api } from '../../app/api.ts'
import { inMobileAdmin } from './plan-model.ts'

/**
 * Asks the platform for the plan's charge (PUT /plan) and sends the merchant to its approval
 * page (the whole window: inside the admin the page is the platform's own); the platform brings
 * them back to プラン, into the admin's app when they are in the mobile app.
 */
export async function choosePlan(key: AppPlanKey): Promise<void> {
  const { confirmationUrl } = await api('PUT /plan', { body: { plan: key, mobile: inMobileAdmin() } })
  window.open(confirmationUrl, '_top')
}

import { ACCESS_SCOPES } from './demo-data/shop-info.ts'
import type { InstallationRecord } from './records.ts'

/**
 * The merchant's answer to the scopes the app asks for: exactly `granted` from now on, and
 * every scope of the app's configuration not among them declined (kept so a state loaded later
 * is not given them back, persistence.ts).
 */
export function setGrantedScopes(installation: InstallationRecord, granted: readonly string[]): void {
  installation.scopes = [...new Set(granted)]
  const declined = ACCESS_SCOPES.filter((scope) => !granted.includes(scope))
  if (declined.length > 0) installation.declinedScopes = declined
  else delete installation.declinedScopes
}

/** The installation's scopes less `declined` (a shop whose merchant did not grant them). */
export function declineScopes(installation: InstallationRecord, declined: readonly string[]): void {
  setGrantedScopes(
    installation,
    installation.scopes.filter((scope) => !declined.includes(scope)),
  )
}

import type { ResolverMap } from '../attach-resolvers.ts'
import type { InstallationRecord } from '../records.ts'

const scopeDescriptions: Record<string, string> = {
  read_own_subscription_contracts: 'Read subscription contracts created by the app',
  write_own_subscription_contracts: 'Modify subscription contracts created by the app',
}

export const shopResolvers: ResolverMap = {
  QueryRoot: {
    shop: (_s, _a, ctx) => ctx.shop.info,
    currentAppInstallation: (_s, _a, ctx) => ctx.shop.installation,
  },
  AppInstallation: {
    accessScopes: (inst: InstallationRecord) =>
      inst.scopes.map((handle) => ({ handle, description: scopeDescriptions[handle] ?? handle })),
    activeSubscriptions: (inst: InstallationRecord) =>
      inst.subscriptions.filter((s) => s.status === 'ACTIVE'),
  },
}

import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import type { AppSubscriptionRecord, InstallationRecord } from '../records.ts'

const scopeDescriptions: Record<string, string> = {
  read_own_subscription_contracts: 'Read subscription contracts created by the app',
  write_own_subscription_contracts: 'Modify subscription contracts created by the app',
}

export const shopResolvers: ResolverMap = {
  QueryRoot: {
    shop: (_s, _a, ctx) => ctx.shop.info,
    currentAppInstallation: (_s, _a, ctx) => ctx.shop.installation,
  },
  Shop: {
    // Every emulated shop may sell subscriptions (a real one needs an eligible payment gateway);
    // it sells them once it has a contract.
    features: (_info: unknown, _a: unknown, ctx: Context) => ({
      eligibleForSubscriptions: true,
      sellsSubscriptions: ctx.shop.contracts.length > 0,
    }),
  },
  AppInstallation: {
    accessScopes: (inst: InstallationRecord) =>
      inst.scopes.map((handle) => ({ handle, description: scopeDescriptions[handle] ?? handle })),
    activeSubscriptions: (inst: InstallationRecord) =>
      inst.subscriptions.filter((s) => s.status === 'ACTIVE'),
    app: (_inst: InstallationRecord, _a: unknown, ctx: Context) => ({ id: 1, ...ctx.runtime.app }),
  },
  AppSubscription: {
    // "Returns null if the subscription isn't active."
    currentPeriodEnd: (sub: AppSubscriptionRecord) => (sub.status === 'ACTIVE' ? sub.currentPeriodEnd : null),
  },
}

export * from './errors.ts'
export * from './shop.ts'
export * from './subscription-actions.ts'
export * from './subscriptions.ts'

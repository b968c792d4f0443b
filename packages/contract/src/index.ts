export * from './errors.ts'
export * from './shop.ts'
export * from './subscriptions.ts'

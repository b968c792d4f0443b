// The entry Shopify CLI builds (the TypeScript function template's src/index).
export * from './run.ts'

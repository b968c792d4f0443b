export * from './defaults.ts'
export * from './template.ts'
export * from './values.ts'
export * from './variables.ts'

/** The topics the emulator emits, REST style; the GraphQL enum is the same in upper snake case. */
export const WEBHOOK_TOPICS = [
  'subscription_contracts/create',
  'subscription_contracts/update',
  'subscription_contracts/activate',
  'subscription_contracts/pause',
  'subscription_contracts/cancel',
  'subscription_contracts/fail',
  'subscription_contracts/expire',
  'subscription_billing_attempts/success',
  'subscription_billing_attempts/failure',
  'subscription_billing_attempts/challenged',
  'selling_plan_groups/create',
  'selling_plan_groups/update',
  'selling_plan_groups/delete',
  'orders/create',
  'orders/updated',
  'refunds/create',
  'customers/create',
  'customers/update',
  'customers/delete',
  'app/uninstalled',
  'app_subscriptions/update',
] as const

export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number]

/**
 * The mandatory compliance topics: no subscription asks for them, the platform sends them to
 * the app's compliance URL (shopify.app.toml); here, the app's callback URL.
 */
export const COMPLIANCE_TOPICS: readonly string[] = [
  'customers/data_request',
  'customers/redact',
  'shop/redact',
]

export const topicToEnum = (topic: string): string => topic.replace('/', '_').toUpperCase()

/** `SUBSCRIPTION_CONTRACTS_UPDATE` -> `subscription_contracts/update`; the split is at the last underscore. */
export function topicFromEnum(value: string): string {
  const lower = value.toLowerCase()
  const known = WEBHOOK_TOPICS.find((t) => topicToEnum(t) === value)
  if (known) return known
  const i = lower.lastIndexOf('_')
  return i < 0 ? lower : `${lower.slice(0, i)}/${lower.slice(i + 1)}`
}

/**
 * Wire formats of the platform's scalars. Shopify prints decimals with at least one fractional
 * digit ("1980.0" even for JPY) and DateTime without milliseconds.
 */
export function formatDecimal(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value)
}

export function formatDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export const moneyV2 = (amount: number, currencyCode: string) => ({
  amount: formatDecimal(amount),
  currencyCode,
})

export const moneyBag = (amount: number, currencyCode: string) => {
  const money = moneyV2(amount, currencyCode)
  return { shopMoney: money, presentmentMoney: money }
}

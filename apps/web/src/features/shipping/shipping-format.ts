import type { ShippingForecast, ShippingForecastDay } from '@teiki/contract'

// What 出荷予定 writes: dates with the weekday, counts with grouping, the lists cut to a few.

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土']

/** 2026-12-01 → 2026年12月1日（火） */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]
  return `${y}年${m}月${d}日（${weekday}）`
}

export function periodLabel(forecast: Pick<ShippingForecast, 'from' | 'to'>): string {
  return `${dayLabel(forecast.from)}〜${dayLabel(forecast.to)}`
}

const count = (n: number) => n.toLocaleString('ja-JP')

export function totalsLabel(forecast: Pick<ShippingForecast, 'orders' | 'units'>): string {
  return `注文 ${count(forecast.orders)}件・商品 ${count(forecast.units)}点`
}

/** The first `max` entries as `label n件`, then 「ほか N件」 for the rest. */
function listed<T>(items: readonly T[], max: number, text: (item: T) => string, unit: string): string {
  if (items.length === 0) return '—'
  const shown = items.slice(0, max).map(text)
  if (items.length > max) shown.push(`ほか${count(items.length - max)}${unit}`)
  return shown.join('、')
}

export function unitsText(day: ShippingForecastDay, max = 3): string {
  return listed(day.units, max, (u) => `${u.sku}×${count(u.quantity)}`, '種')
}

export function slotsText(day: ShippingForecastDay, max = 4): string {
  return listed(
    day.slots,
    max,
    (s) => `${s.slot}${s.code ? `（${s.code}）` : ''} ${count(s.orders)}件`,
    '区分',
  )
}

export function prefecturesText(day: ShippingForecastDay, max = 3): string {
  return listed(day.prefectures, max, (p) => `${p.name} ${count(p.orders)}件`, '都道府県')
}

export const DAYS_CHOICES = [
  { label: '7日間', value: '7' },
  { label: '14日間', value: '14' },
  { label: '31日間', value: '31' },
] as const
export type ForecastDays = 7 | 14 | 31

export const parseDays = (value: string): ForecastDays => (value === '31' ? 31 : value === '14' ? 14 : 7)

export const LAYOUT_CHOICES = [
  { label: '標準（1注文1行）', value: 'standard' },
  { label: 'ヤマト運輸 B2クラウド取込用', value: 'yamato-b2' },
] as const

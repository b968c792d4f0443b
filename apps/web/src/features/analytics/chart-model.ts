/** Pure layout of the line charts (tested without a browser). */

export type ChartPoint = { date: string; value: number }
export type ChartSeries = { name: string; points: ChartPoint[] }

/** Spec §9: a chart with nothing to show is scaled to 100. */
export const DEFAULT_CHART_MAX = 100

/** A round top for the y axis: 1, 2 or 5 × 10^n at or above `max` (100 when there is nothing). */
export function niceMax(max: number): number {
  if (!(max > 0)) return DEFAULT_CHART_MAX
  if (max <= 2) return 2
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

/** SVG polyline points of a series in a `width` × `height` box. */
export function linePoints(points: ChartPoint[], top: number, width: number, height: number): string {
  if (points.length === 0) return ''
  const dx = points.length > 1 ? width / (points.length - 1) : 0
  return points
    .map((p, i) => `${(i * dx).toFixed(1)},${(height - (p.value / top) * height).toFixed(1)}`)
    .join(' ')
}

/** Up to `count` evenly spaced indexes for the x axis labels (first and last included). */
export function tickIndexes(length: number, count = 6): number[] {
  if (length <= count) return Array.from({ length }, (_, i) => i)
  const step = (length - 1) / (count - 1)
  return Array.from({ length: count }, (_, i) => Math.round(i * step))
}

/** `2026-11-05` → `11/5` (axis labels). */
export const shortDate = (date: string) => {
  const [, m, d] = date.split('-').map(Number)
  return `${m}/${d}`
}

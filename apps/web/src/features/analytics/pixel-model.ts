import type { PixelConnection } from '@teiki/contract'
import { formatDateJa } from '@teiki/domain'

export type PixelView = {
  badge: { label: string; tone: 'success' | 'critical' | 'attention' }
  /** The line under the badge: since when it is connected, or when the last try was. */
  note: string | null
  /** The connect button's label; null when there is nothing to do (connected). */
  action: string | null
}

/**
 * What the ウェブピクセル card shows for the shop's pixel: 接続済み with the date it was
 * connected, or 未接続 with a button (接続する; 再接続する after a failure, whose reason the
 * card shows). A connected pixel has no button: there is nothing for it to do.
 */
export function pixelView(c: PixelConnection): PixelView {
  if (c.status === 'connected')
    return {
      badge: { label: '接続済み', tone: 'success' },
      note: c.connectedAt ? `${formatDateJa(c.connectedAt)}に接続しました` : null,
      action: null,
    }
  if (c.status === 'failed')
    return {
      badge: { label: '未接続', tone: 'critical' },
      note: c.checkedAt ? `${formatDateJa(c.checkedAt)}に接続できませんでした` : null,
      action: '再接続する',
    }
  return { badge: { label: '未接続', tone: 'attention' }, note: null, action: '接続する' }
}

/**
 * What 流入元 says when its period holds a generated history (the demo shop's, made up when it
 * was seeded, `generatedThrough` its last day): those figures are not measured. Null when the
 * period starts after it, or the shop has none: every figure is then the web pixel's.
 */
export function generatedHistoryNote(generatedThrough: string | null, from: string): string | null {
  if (!generatedThrough || from > generatedThrough) return null
  return `${formatDateJa(generatedThrough)}までのアクセス数と流入元は、デモ用に生成したデータです（ウェブピクセルの計測ではありません）。それより後の数字は、ストアでの閲覧と購入をウェブピクセルが計測したものです。`
}

import { describe, expect, it } from 'vitest'
import { exportJobText, type TagJobState, tagJobPercent, tagJobText } from '../src/index.ts'

const job = (over: Partial<TagJobState>): TagJobState => ({
  tag: 'VIP',
  status: 'running',
  total: 1200,
  done: 0,
  failed: 0,
  error: null,
  ...over,
})

describe('segment tag batch text', () => {
  it('says started, running with N / M 件, done and failed in Japanese', () => {
    expect(tagJobText(job({ status: 'queued', total: null }))).toBe(
      'タグ「VIP」の一括追加を開始しました。まもなく追加が始まります。',
    )
    expect(tagJobText(job({ total: null }))).toBe('タグ「VIP」を追加する顧客を集計しています…')
    expect(tagJobText(job({ done: 998, failed: 2 }))).toBe(
      'タグ「VIP」を追加しています: 1,000 / 1,200 件（失敗2件）',
    )
    expect(tagJobText(job({ status: 'done', done: 1200 }))).toBe('タグ「VIP」を1,200件の顧客に追加しました。')
    expect(tagJobText(job({ status: 'done', done: 1195, failed: 5 }))).toBe(
      'タグ「VIP」を1,195件の顧客に追加しました。5件は追加できませんでした。',
    )
    expect(tagJobText(job({ status: 'failed', done: 10, error: 'セグメントが削除されました。' }))).toBe(
      'タグ「VIP」の一括追加が失敗しました（10件処理済み）。セグメントが削除されました。',
    )
  })

  it('counts failed customers as handled in the percent, 100 once done', () => {
    expect(tagJobPercent(job({ done: 300, failed: 300 }))).toBe(50)
    expect(tagJobPercent(job({ total: null }))).toBe(0)
    expect(tagJobPercent(job({ status: 'done', total: 0 }))).toBe(100)
  })
})

describe('segment export text', () => {
  const base = { email: 'a@example.jp', rows: null, finishedAt: null }
  it('says accepted, writing, mailed with the rows and time, and failed', () => {
    expect(exportJobText({ ...base, status: 'queued' })).toContain(
      '受け付けました。完了すると a@example.jp に',
    )
    expect(exportJobText({ ...base, status: 'running' })).toContain('作成しています')
    expect(
      exportJobText(
        { ...base, status: 'done', rows: 12345, finishedAt: '2026-11-24T03:05:00Z' },
        'Asia/Tokyo',
      ),
    ).toBe('12,345件のCSVを a@example.jp にメールで送信しました（2026年11月24日 12:05）。')
    expect(exportJobText({ ...base, status: 'failed' })).toContain('作成できませんでした')
  })
})

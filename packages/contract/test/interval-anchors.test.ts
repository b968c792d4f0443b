import { describe, expect, it } from 'vitest'
import { type IntervalRequest, ZAnchorInput, ZIntervalRequest } from '../src/index.ts'

// The anchor rules of PUT /interval-and-interval-count (issue 12, ADR 0009). The server answers a
// failed parse with 400 and the first issue's message, so each row checks that message.

type Anchor = IntervalRequest['anchors'] extends (infer A)[] | undefined ? A : never
const request = (interval: 'DAY' | 'WEEK' | 'MONTH', anchors: Anchor[]): IntervalRequest => ({
  contractId: '42',
  interval,
  intervalCount: 1,
  anchors,
})
const firstMessage = (input: unknown): string | undefined => {
  const result = ZIntervalRequest.safeParse(input)
  return result.success ? undefined : result.error.issues[0]?.message
}

describe('ZIntervalRequest anchors', () => {
  it.each<[string, IntervalRequest]>([
    [
      'monthly on the 10th and the 20th',
      request('MONTH', [
        { type: 'MONTHDAY', day: 10 },
        { type: 'MONTHDAY', day: 20 },
      ]),
    ],
    [
      'weekly on Monday and Thursday',
      request('WEEK', [
        { type: 'WEEKDAY', day: 1 },
        { type: 'WEEKDAY', day: 4 },
      ]),
    ],
    [
      'every day of a week',
      request(
        'WEEK',
        [1, 2, 3, 4, 5, 6, 7].map((day) => ({ type: 'WEEKDAY' as const, day })),
      ),
    ],
    [
      'all 31 days of a month',
      request(
        'MONTH',
        Array.from({ length: 31 }, (_, i) => ({ type: 'MONTHDAY' as const, day: i + 1 })),
      ),
    ],
    ['MONTHDAY 31 (clamped in short months)', request('MONTH', [{ type: 'MONTHDAY', day: 31 }])],
    ['a fixed cutoff day', request('WEEK', [{ type: 'WEEKDAY', day: 1, cutoffDay: 5, month: null }])],
    ['no anchors', request('DAY', [])],
  ])('accepts %s', (_label, input) => {
    const parsed = ZIntervalRequest.parse(input)
    expect(parsed.anchors).toEqual(input.anchors)
  })

  it.each<[string, unknown, string]>([
    // Impossible YEARDAY dates are refused, not clamped (29 February is a real day).
    [
      'YEARDAY 30 February',
      { type: 'YEARDAY', month: 2, day: 30 },
      '2月30日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY 31 February',
      { type: 'YEARDAY', month: 2, day: 31 },
      '2月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY 31 April',
      { type: 'YEARDAY', month: 4, day: 31 },
      '4月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY 31 June',
      { type: 'YEARDAY', month: 6, day: 31 },
      '6月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY 31 September',
      { type: 'YEARDAY', month: 9, day: 31 },
      '9月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY 31 November',
      { type: 'YEARDAY', month: 11, day: 31 },
      '11月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'YEARDAY without a month',
      { type: 'YEARDAY', day: 1 },
      '年単位のアンカーには月（1〜12）を指定してください',
    ],
    ['YEARDAY month 13', { type: 'YEARDAY', month: 13, day: 1 }, 'アンカーの月は1〜12で指定してください'],
    [
      'YEARDAY with a cutoff day',
      { type: 'YEARDAY', month: 1, day: 1, cutoffDay: 1 },
      '年単位のアンカーには締め日を指定できません',
    ],
    ['WEEKDAY 8', { type: 'WEEKDAY', day: 8 }, '曜日のアンカーは1（月曜）〜7（日曜）で指定してください'],
    [
      'WEEKDAY cutoff day 8',
      { type: 'WEEKDAY', day: 1, cutoffDay: 8 },
      '曜日のアンカーの締め日は1（月曜）〜7（日曜）で指定してください',
    ],
    ['MONTHDAY 32', { type: 'MONTHDAY', day: 32 }, 'アンカーの日は31以下で指定してください'],
    ['MONTHDAY 0', { type: 'MONTHDAY', day: 0 }, 'アンカーの日は1以上で指定してください'],
    ['MONTHDAY 1.5', { type: 'MONTHDAY', day: 1.5 }, 'アンカーの日は整数で指定してください'],
    [
      'MONTHDAY with a month',
      { type: 'MONTHDAY', day: 1, month: 2 },
      '月は年単位（YEARDAY）のアンカーにだけ指定できます',
    ],
    ['cutoff day 0', { type: 'MONTHDAY', day: 10, cutoffDay: 0 }, '締め日は1以上で指定してください'],
    ['an unknown type', { type: 'HOURDAY', day: 1 }, 'アンカーの種類が正しくありません'],
  ])('refuses %s with a Japanese message', (_label, anchor, message) => {
    const interval = (anchor as { type: string }).type === 'WEEKDAY' ? 'WEEK' : 'MONTH'
    expect(firstMessage({ ...request(interval, []), anchors: [anchor] })).toBe(message)
  })

  it.each<[string, IntervalRequest, string]>([
    [
      'an anchor on a daily plan',
      request('DAY', [{ type: 'WEEKDAY', day: 1 }]),
      '日単位の間隔にはアンカーを指定できません',
    ],
    [
      'MONTHDAY on a weekly plan',
      request('WEEK', [{ type: 'MONTHDAY', day: 15 }]),
      '週単位の間隔のアンカーは曜日（1=月曜〜7=日曜）で指定してください',
    ],
    [
      'a second anchor of another type',
      request('WEEK', [
        { type: 'WEEKDAY', day: 1 },
        { type: 'MONTHDAY', day: 3 },
      ]),
      '週単位の間隔のアンカーは曜日（1=月曜〜7=日曜）で指定してください',
    ],
    [
      'WEEKDAY on a monthly plan',
      request('MONTH', [{ type: 'WEEKDAY', day: 1 }]),
      '月単位の間隔のアンカーは日付（1〜31日）で指定してください',
    ],
    [
      'YEARDAY quarters on a monthly plan',
      request('MONTH', [{ type: 'YEARDAY', month: 1, day: 1 }]),
      '月単位の間隔のアンカーは日付（1〜31日）で指定してください',
    ],
    [
      'the same day twice',
      request('MONTH', [
        { type: 'MONTHDAY', day: 10 },
        { type: 'MONTHDAY', day: 20 },
        { type: 'MONTHDAY', day: 10 },
      ]),
      '同じアンカーが重複しています',
    ],
    [
      'the same weekday twice, one with a cutoff',
      request('WEEK', [
        { type: 'WEEKDAY', day: 1 },
        { type: 'WEEKDAY', day: 1, cutoffDay: 5 },
      ]),
      '同じアンカーが重複しています',
    ],
    [
      '32 anchors',
      request(
        'MONTH',
        Array.from({ length: 32 }, (_, i) => ({ type: 'MONTHDAY' as const, day: (i % 31) + 1 })),
      ),
      'アンカーは31個まで指定できます',
    ],
  ])('refuses %s', (_label, input, message) => {
    expect(firstMessage(input)).toBe(message)
  })

  it('points each issue at the anchor that has it', () => {
    const result = ZIntervalRequest.safeParse(
      request('MONTH', [
        { type: 'MONTHDAY', day: 5 },
        { type: 'WEEKDAY', day: 2 },
        { type: 'MONTHDAY', day: 5 },
      ]),
    )
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path)).toEqual([
      ['anchors', 1],
      ['anchors', 2],
    ])
  })

  it.each([
    [2, 29], // 29 February exists in leap years: it bills on 28 February in the others (ADR 0009)
    [4, 30],
    [12, 31],
    [1, 31],
  ])('ZAnchorInput accepts YEARDAY %i/%i', (month, day) => {
    expect(ZAnchorInput.safeParse({ type: 'YEARDAY', month, day }).success).toBe(true)
  })
})

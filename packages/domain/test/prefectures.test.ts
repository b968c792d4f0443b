import { describe, expect, it } from 'vitest'
import { PREFECTURES, prefectureCode, prefectureName } from '../src/index.ts'

describe('the prefectures: one list for every address (issue 22)', () => {
  it('47 prefectures, codes in order, found by name, short name, romaji or code', () => {
    expect(PREFECTURES).toHaveLength(47)
    expect(PREFECTURES.map((p) => p.code)).toEqual(
      Array.from({ length: 47 }, (_, i) => `JP-${String(i + 1).padStart(2, '0')}`),
    )
    expect(PREFECTURES[0]).toMatchObject({ code: 'JP-01', name: '北海道' })
    expect(PREFECTURES[46]).toMatchObject({ code: 'JP-47', name: '沖縄県' })
    expect(prefectureCode('大阪府')).toBe('JP-27')
    expect(prefectureCode('大阪')).toBe('JP-27')
    expect(prefectureCode('Ōsaka')).toBe('JP-27')
    expect(prefectureCode('Hokkaidō')).toBe('JP-01')
    expect(prefectureCode('jp-47')).toBe('JP-47')
    expect(prefectureCode('Atlantis')).toBe('')
    expect(prefectureCode(null)).toBe('')
  })

  it('names a code, and leaves an unknown one as it is', () => {
    expect(prefectureName('JP-13')).toBe('東京都')
    expect(prefectureName('JP-99')).toBe('JP-99')
    expect(new Set(PREFECTURES.map((p) => p.name)).size).toBe(47)
  })
})

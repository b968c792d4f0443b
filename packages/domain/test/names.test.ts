import { describe, expect, it } from 'vitest'
import { japaneseName } from '../src/index.ts'

type Input = Parameters<typeof japaneseName>[0]

describe('japaneseName', () => {
  it.each<[Input, string]>([
    [{ lastName: '山田', firstName: '太郎' }, '山田 太郎'], // family name first, half-width space
    [{ lastName: '山田' }, '山田'],
    [{ firstName: '太郎' }, '太郎'],
    [{ lastName: '山田', firstName: null, displayName: '山田太郎' }, '山田'], // a part beats displayName
    [{ lastName: 'Smith', firstName: 'John' }, 'Smith John'], // Latin too: family first, one order per list
    [{ lastName: 'Yamada', firstName: 'Taro' }, 'Yamada Taro'], // romanized Japanese reads right
    [{ lastName: '  山田 ', firstName: '\t太郎' }, '山田 太郎'], // parts trimmed
    [{ lastName: '   ', firstName: '' }, ''], // blank parts are missing
    [{ lastName: null, firstName: null, displayName: 'taro@example.com' }, 'taro@example.com'],
    [{ lastName: '', firstName: '  ', displayName: ' 山田太郎 ' }, '山田太郎'],
    [{ displayName: null }, ''],
    [{}, ''],
  ])('%j -> %j', (input, expected) => {
    expect(japaneseName(input)).toBe(expected)
  })
})

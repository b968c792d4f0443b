import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonErrorOffset, noteAttributeProblem, parseJsonText, skuConversionsProblem } from '../src/index.ts'

describe('jsonErrorOffset', () => {
  it('agrees with JSON.parse on validity for any JSON value and any text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBeNull()
      }),
    )
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        expect(jsonErrorOffset(text) === null).toBe(valid)
      }),
    )
  })

  it.each([
    ['[1,]', 3], // a value was expected where ] stands
    ['{"a" 1}', 5],
    ['[\n  {"from":"A", "to": }\n]', 23],
    ['"abc', 4],
    ['tru', 3],
    ['[1] x', 4],
  ])('%j stops being JSON at %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset)
  })
})

describe('settings JSON messages', () => {
  it('points at the line and column', () => {
    expect(parseJsonText('[\n  {"from":"A", "to": }\n]', 'SKU変換')).toEqual({
      problem: 'SKU変換のJSONが正しくありません（2行目 22文字目付近）。JSONの形式で入力してください',
    })
    expect(parseJsonText('[{"a":1}', 'X')).toEqual({
      problem: 'XのJSONが正しくありません（末尾（閉じ括弧や値が足りません））。JSONの形式で入力してください',
    })
  })

  it.each([
    ['[]', null],
    ['[{"key":"ギフト"}]', null],
    ['[{"key":""}]', '注文メモ属性の1件目の "key" が空です'],
    ['[1]', '注文メモ属性の1件目は {"key": "…"} の形のオブジェクトで入力してください'],
    [`[{"key":"${'あ'.repeat(101)}"}]`, '注文メモ属性の1件目の "key" は100文字以内にしてください'],
  ])('note attribute %s → %s', (text, problem) => {
    expect(noteAttributeProblem(text)).toBe(problem)
  })

  it('SKU conversions need from and to, each from once', () => {
    expect(skuConversionsProblem('[{"from":"A","to":"B"}]')).toBeNull()
    expect(skuConversionsProblem('[{"from":"A"}]')).toBe('SKU変換の1件目に "to" がありません')
  })
})

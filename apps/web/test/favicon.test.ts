import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const WEB = join(import.meta.dirname, '..')

// Issue 22: /favicon.ico answered 404 on every page. Vite copies public/ into the build, whose
// files the server serves; the document links the icon so the browser asks for it by name.
describe('the favicon', () => {
  it('is linked from the document', () => {
    const html = readFileSync(join(WEB, 'index.html'), 'utf8')
    expect(html).toMatch(/<link rel="icon" href="\/favicon\.ico"[^>]*>/)
  })

  it('is an ICO holding 16, 32 and 48 px PNG images', () => {
    const ico = readFileSync(join(WEB, 'public/favicon.ico'))
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]) // reserved, type icon
    const count = ico.readUInt16LE(4)
    const images = Array.from({ length: count }, (_, i) => {
      const entry = 6 + 16 * i
      const offset = ico.readUInt32LE(entry + 12)
      const png = ico.subarray(offset, offset + ico.readUInt32LE(entry + 8))
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
      return [ico.readUInt8(entry), png.readUInt32BE(16), png.readUInt32BE(20)]
    })
    expect(images).toEqual([
      [16, 16, 16],
      [32, 32, 32],
      [48, 48, 48],
    ])
  })
})

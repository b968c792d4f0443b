import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * Gzip size of what the first page load fetches: the scripts, module preloads and
 * stylesheets index.html references (lazy route chunks are not counted).
 */
export function initialLoadSizes(distDir: string) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)
  const files = [...new Set(refs)].map((ref) => {
    const bytes = readFileSync(join(distDir, ref))
    return { file: ref, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length }
  })
  const sum = (ext: string) => files.filter((f) => f.file.endsWith(ext)).reduce((n, f) => n + f.gzipBytes, 0)
  return {
    files,
    jsGzipKB: Math.round(sum('.js') / 102.4) / 10,
    cssGzipKB: Math.round(sum('.css') / 102.4) / 10,
  }
}

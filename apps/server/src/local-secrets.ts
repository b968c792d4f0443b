import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * A secret generated once and kept in the data folder (mode 0600), so a second start
 * prints the same login URL and verifies the same session tokens.
 */
export function persistentSecret(path: string, fixed?: string): string {
  if (fixed) return fixed
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  const secret = randomBytes(18).toString('base64url')
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${secret}\n`, { mode: 0o600 })
  return secret
}

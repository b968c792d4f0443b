import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'

type Log = (message: string) => void

/** Group and other permission bits: none of them may be set on what the data folder holds. */
const OTHERS = 0o077

/**
 * A folder only this user can enter (0700), created if missing; one that exists with looser
 * modes is tightened, and that is logged (the data folder holds the database, the shops'
 * tokens, exported customer data and the app's secrets).
 */
export function privateDir(path: string, log?: Log): void {
  mkdirSync(path, { recursive: true, mode: 0o700 })
  tighten(path, 0o700, log)
}

/**
 * A secret generated once and kept in the data folder (mode 0600), so a second start
 * prints the same login URL and verifies the same session tokens.
 */
export function persistentSecret(path: string, fixed?: string, log?: Log): string {
  if (fixed) return fixed
  if (existsSync(path)) {
    tighten(path, 0o600, log)
    return readFileSync(path, 'utf8').trim()
  }
  const secret = randomBytes(18).toString('base64url')
  privateDir(dirname(path), log)
  writeFileSync(path, `${secret}\n`, { mode: 0o600 })
  return secret
}

/**
 * Everything under the data folder made private: folders 0700, files without group/other
 * bits. For a folder made before this rule (or copied in with a loose umask); one line is
 * logged when anything had to change. Symbolic links are left alone.
 */
export function tightenDataDir(dataDir: string, log?: Log): number {
  privateDir(dataDir, log)
  let changed = 0
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const stat = lstatSync(path)
      if (stat.isSymbolicLink()) continue
      if (stat.isDirectory()) {
        if (stat.mode & OTHERS) {
          chmodSync(path, 0o700)
          changed++
        }
        walk(path)
      } else if (stat.mode & OTHERS) {
        chmodSync(path, stat.mode & 0o700)
        changed++
      }
    }
  }
  walk(dataDir)
  if (changed > 0)
    log?.(`[teiki] ${dataDir} の ${changed} 件を他のユーザーが読めない権限（0700/0600）にしました`)
  return changed
}

function tighten(path: string, mode: number, log?: Log): void {
  const current = lstatSync(path).mode & 0o777
  if ((current & OTHERS) === 0) return
  chmodSync(path, mode)
  log?.(
    `[teiki] ${path} の権限を ${current.toString(8).padStart(4, '0')} から ${mode.toString(8).padStart(4, '0')} にしました`,
  )
}

import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { privateDir } from '../local-secrets.ts'

/**
 * How a second process (`npm run billing`) finds the running app's embedded services, and
 * how the embedded data folder keeps one writer.
 *
 * - `DATA_DIR/runtime.json`: written by `npm start` once it serves: its pid, its HTTP origin,
 *   the URL of its PGlite socket (embedded default only: a unix socket in DATA_DIR/socket, a
 *   0700 folder, so the URL opens nothing for another local user; the file itself is 0600) and
 *   of its emulator (no real platform only).
 * - `DATA_DIR/embedded.lock`: held (pid inside) by the one process that opens the PGlite data
 *   folder and the emulator state file. PGlite is a single-process database and the emulator
 *   rewrites its state file whole, so two writers would lose data: the second process either
 *   uses the first one's sockets (runtime.json) or stops with a message.
 */
export type RuntimeInfo = {
  pid: number
  startedAt: string
  /** Where the app serves HTTP (its /internal/billing/run). */
  appUrl?: string
  /** postgres://… of the app's PGlite socket; absent with DATABASE_URL. */
  databaseUrl?: string
  /** Origin of the app's emulator; absent against the real platform. */
  emulatorUrl?: string
  /** The local mail catcher (embedded default without SMTP_URL): its SMTP URL and its page. */
  mailCatcher?: { smtpUrl: string; pageUrl: string }
}

const RUNTIME_FILE = 'runtime.json'
const LOCK_FILE = 'embedded.lock'

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function writeRuntimeInfo(dataDir: string, info: Omit<RuntimeInfo, 'pid' | 'startedAt'>): () => void {
  privateDir(dataDir)
  const path = join(dataDir, RUNTIME_FILE)
  const content: RuntimeInfo = { pid: process.pid, startedAt: new Date().toISOString(), ...info }
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 })
  return () => {
    if (readRuntimeFile(path)?.pid === process.pid) rmSync(path, { force: true })
  }
}

function readRuntimeFile(path: string): RuntimeInfo | null {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as RuntimeInfo
    return typeof info.pid === 'number' ? info : null
  } catch {
    return null
  }
}

/** The running app's services, or null when no live app wrote them. */
export function readRuntimeInfo(dataDir: string): RuntimeInfo | null {
  const info = readRuntimeFile(join(dataDir, RUNTIME_FILE))
  return info && info.pid !== process.pid && isAlive(info.pid) ? info : null
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; owner: string },
  ) {
    super(
      `${dataDir} は別のプロセス（pid ${holder.pid}: ${holder.owner}）が使用中です。そのプロセスを停止するか、終わるのを待ってからもう一度実行してください。`,
    )
    this.name = 'DataDirBusyError'
  }
}

/**
 * Takes the embedded data folder for this process; answers the release. A lock left by a
 * process that died is taken over. Throws DataDirBusyError while a live process holds it.
 */
export function lockDataDir(dataDir: string, owner: string): () => void {
  privateDir(dataDir)
  const path = join(dataDir, LOCK_FILE)
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, JSON.stringify({ pid: process.pid, owner }))
      closeSync(fd)
      return () => {
        try {
          const held = JSON.parse(readFileSync(path, 'utf8')) as { pid?: number }
          if (held.pid === process.pid) rmSync(path, { force: true })
        } catch {
          // already gone
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let holder: { pid: number; owner: string } = { pid: 0, owner: '?' }
      try {
        holder = JSON.parse(readFileSync(path, 'utf8')) as typeof holder
      } catch {
        // half-written by a process that died while taking it: stale
      }
      if (isAlive(holder.pid) && holder.pid !== process.pid) throw new DataDirBusyError(dataDir, holder)
      rmSync(path, { force: true })
    }
  }
  throw new Error(`could not lock ${dataDir}`)
}

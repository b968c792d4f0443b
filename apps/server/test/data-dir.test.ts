import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { persistentSecret, privateDir, tightenDataDir } from '../src/local-secrets.ts'
import { lockDataDir, writeRuntimeInfo } from '../src/process/runtime.ts'

// Issue 11 item 7: the data folder holds the database, tokens, exported customer data and the
// app's secrets. It and everything in it are this user's only, also when it existed before.

const dirs: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'teiki-datadir-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})
const mode = (path: string) => statSync(path).mode & 0o777

describe('the data folder', () => {
  it('is created 0700, secrets 0600, runtime.json and the lock 0600', () => {
    const data = join(temp(), 'new', '.data')
    privateDir(data)
    expect(mode(data)).toBe(0o700)
    const secret = persistentSecret(join(data, 'app-client-secret'))
    expect(secret).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(mode(join(data, 'app-client-secret'))).toBe(0o600)
    const release = lockDataDir(data, 'test')
    expect(mode(join(data, 'embedded.lock'))).toBe(0o600)
    const remove = writeRuntimeInfo(data, { appUrl: 'http://127.0.0.1:1' })
    expect(mode(join(data, 'runtime.json'))).toBe(0o600)
    remove()
    release()
  })

  it('is tightened when it exists with loose modes, and says so', () => {
    const data = join(temp(), '.data')
    mkdirSync(join(data, 'exports'), { recursive: true })
    mkdirSync(join(data, 'pglite', 'base'), { recursive: true })
    chmodSync(data, 0o755)
    chmodSync(join(data, 'exports'), 0o775)
    chmodSync(join(data, 'pglite', 'base'), 0o755)
    writeFileSync(join(data, 'demo-secret'), 'an-old-demo-secret\n', { mode: 0o644 })
    writeFileSync(join(data, 'exports', 'subscriptions.csv'), 'a,b\n', { mode: 0o664 })
    writeFileSync(join(data, 'pglite', 'base', '1'), 'x', { mode: 0o640 })
    writeFileSync(join(data, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 })
    symlinkSync('/etc/hostname', join(data, 'link'))
    const logged: string[] = []
    const changed = tightenDataDir(data, (m) => logged.push(m))
    expect(mode(data)).toBe(0o700)
    expect(mode(join(data, 'exports'))).toBe(0o700)
    expect(mode(join(data, 'pglite'))).toBe(0o700)
    expect(mode(join(data, 'pglite', 'base'))).toBe(0o700)
    expect(mode(join(data, 'demo-secret'))).toBe(0o600)
    expect(mode(join(data, 'exports', 'subscriptions.csv'))).toBe(0o600)
    expect(mode(join(data, 'pglite', 'base', '1'))).toBe(0o600)
    expect(mode(join(data, 'run.sh'))).toBe(0o700)
    expect(mode('/etc/hostname') & 0o004).toBe(0o004)
    expect(changed).toBeGreaterThanOrEqual(7)
    expect(logged.join('\n')).toMatch(/0755 から 0700/)
    expect(logged.join('\n')).toMatch(/件を他のユーザーが読めない権限/)
    // Nothing left to change: a second start logs nothing.
    const again: string[] = []
    expect(tightenDataDir(data, (m) => again.push(m))).toBe(0)
    expect(again).toEqual([])
  })

  it('keeps a secret that exists, tightening its file', () => {
    const data = temp()
    writeFileSync(join(data, 'demo-secret'), 'kept-secret-value\n', { mode: 0o644 })
    const logged: string[] = []
    expect(persistentSecret(join(data, 'demo-secret'), undefined, (m) => logged.push(m))).toBe(
      'kept-secret-value',
    )
    expect(mode(join(data, 'demo-secret'))).toBe(0o600)
    expect(logged).toEqual([`[teiki] ${join(data, 'demo-secret')} の権限を 0644 から 0600 にしました`])
    expect(readFileSync(join(data, 'demo-secret'), 'utf8')).toBe('kept-secret-value\n')
  })
})

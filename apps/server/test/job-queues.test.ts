import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

describe('job queues', () => {
  it('are created only through Jobs.createQueue (one process at a time), never pg-boss directly', () => {
    // Two processes starting together deadlocked in pg-boss's createQueue (a partition table per
    // queue) when one file called boss.createQueue itself; jobs/boss.ts serialises it.
    const direct = sourceFiles(SRC)
      .filter((f) => !f.endsWith(join('jobs', 'boss.ts')))
      .filter((f) => /\bboss\.createQueue\(/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(SRC.length + 1))
    expect(direct).toEqual([])
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// How the server's modules may depend on each other, checked on the source text (the imports
// of every file under src/), so a new file cannot quietly break it.

const SRC = resolve(import.meta.dirname, '../src')

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )

const files = sourceFiles(SRC)
const rel = (file: string) => relative(SRC, file).replaceAll('\\', '/')

/** The src files `file` imports (static imports and re-exports, types included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const m of text.matchAll(/^(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gms)) {
    found.push(resolve(dirname(file), m[1]!))
  }
  return found
}

function reachable(from: string): Set<string> {
  const seen = new Set<string>()
  const queue = [from]
  while (queue.length > 0) {
    const file = queue.pop()!
    for (const next of importsOf(file)) {
      if (seen.has(next)) continue
      seen.add(next)
      if (next.startsWith(SRC)) queue.push(next)
    }
  }
  return seen
}

const isRouteFile = (file: string) => /(^|\/|-)routes\.ts$/.test(rel(file))

/** The jobs files that run one feature's work on pg-boss, and that feature. */
const JOBS_OF: Record<string, string> = {
  'jobs/billing-jobs.ts': 'billing',
  'jobs/export-jobs.ts': 'exports',
  'jobs/batch-jobs.ts': 'batch',
  'jobs/cdp-jobs.ts': 'cdp',
}

/** The feature a file belongs to: features/<noun>/, billing/, its jobs file, or none (shared layers). */
function featureOf(path: string): string | null {
  const noun = /^features\/([^/]+)\//.exec(path)?.[1]
  if (noun) return noun
  if (path.startsWith('billing/')) return 'billing'
  return JOBS_OF[path] ?? null
}

const isRepository = (path: string) => /(^|\/)([a-z-]+-)?repo\.ts$/.test(path)
/** The shop row is every request's and job's tenant: its repository is the one all may read. */
const TENANT_REPOSITORY = 'features/shops/repo.ts'

/** `file` imports a repository of a feature that is not its own (or, outside features, any). */
function foreignRepositories(file: string): string[] {
  const own = featureOf(rel(file))
  return importsOf(file)
    .map(rel)
    .filter((target) => isRepository(target) && featureOf(target) !== null && featureOf(target) !== own)
    .filter((target) => target !== TENANT_REPOSITORY)
}

describe('module boundaries', () => {
  it('finds the imports it checks', () => {
    expect(files.filter(isRouteFile).length).toBeGreaterThanOrEqual(10)
    expect(importsOf(join(SRC, 'http/app.ts')).map(rel)).toContain('billing/routes.ts')
  })

  it('only the process (main.ts) imports http/app.ts; routes take AppInstance from http/app-instance.ts', () => {
    const importers = files.filter((f) => importsOf(f).includes(join(SRC, 'http/app.ts'))).map(rel)
    expect(importers).toEqual(['main.ts'])
    for (const route of files.filter(isRouteFile)) {
      if (!readFileSync(route, 'utf8').includes('AppInstance')) continue
      expect(importsOf(route).map(rel), rel(route)).toContain('http/app-instance.ts')
    }
  })

  it('http/app-instance.ts reaches no route file and not app.ts (no cycle back)', () => {
    const reached = [...reachable(join(SRC, 'http/app-instance.ts'))].map(rel)
    expect(reached).toContain('billing/engine.ts')
    expect(reached.filter((f) => isRouteFile(join(SRC, f)) || f === 'http/app.ts')).toEqual([])
  })

  it("no module imports another feature's repository (shared data lives in sync/; the shops repository is the tenant's)", () => {
    expect(files.map(rel).filter(isRepository).length).toBeGreaterThanOrEqual(12)
    expect(featureOf('jobs/billing-jobs.ts')).toBe('billing')
    expect(featureOf('jobs/export-jobs.ts')).toBe('exports')
    expect(featureOf('jobs/boss.ts')).toBeNull()
    const offenders = files.flatMap((f) => foreignRepositories(f).map((target) => `${rel(f)} → ${target}`))
    expect(offenders).toEqual([])
  })
})

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

/** The src files `file` imports at run time (type-only imports and re-exports left out). */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const m of text.matchAll(/^(import|export)(\s+type\b)?[^'"]*?from\s+'(\.[^']+)'/gms)) {
    if (!m[2]) found.push(resolve(dirname(file), m[3]!))
  }
  return found
}

/**
 * The folder a file belongs to in the layer drawing (ARCHITECTURE.md, "Layers"): each feature
 * folder on its own, each other top folder, and the files at the top of src/ by name.
 */
function folderOf(path: string): string {
  const feature = /^features\/([^/]+)\//.exec(path)?.[1]
  if (feature) return `features/${feature}`
  const top = /^([^/]+)\//.exec(path)?.[1]
  return top ?? path
}

/** The composition roots: they import everything and nothing imports them but the process. */
const COMPOSITION_ROOTS = new Set(['main.ts', 'http/app.ts'])

/** Folder → the folders it imports at run time (composition roots left out). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const file of files) {
    if (COMPOSITION_ROOTS.has(rel(file))) continue
    const from = folderOf(rel(file))
    for (const target of runtimeImportsOf(file)) {
      if (!target.startsWith(SRC)) continue
      const to = folderOf(rel(target))
      if (to === from) continue
      if (!graph.has(from)) graph.set(from, new Set())
      graph.get(from)!.add(to)
    }
  }
  return graph
}

/** A cycle of the graph as a path (first = last), or null when it has none. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (node: string): string[] | null => {
    state.set(node, 'open')
    path.push(node)
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next]
      if (!state.has(next)) {
        const found = visit(next)
        if (found) return found
      }
    }
    path.pop()
    state.set(node, 'done')
    return null
  }
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue
    const found = visit(node)
    if (found) return found
  }
  return null
}

/**
 * The layers, bottom first (ARCHITECTURE.md, "Layers"). A folder imports only from its own
 * layer or those below; within the features' layer folders may use each other's services, as
 * long as the folder graph stays without a cycle.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['config.ts', 'local-secrets.ts'],
  ['db', 'process', 'runs'],
  ['http'],
  ['platform', 'mail'],
  ['sync'],
  ['features/*', 'billing'],
  ['demo', 'jobs'],
]

function layerOf(folder: string): number {
  const at = LAYERS.findIndex((layer) =>
    layer.some((name) => name === folder || (name === 'features/*' && folder.startsWith('features/'))),
  )
  if (at < 0) throw new Error(`${folder} is in no layer: add it to LAYERS and ARCHITECTURE.md`)
  return at
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
const TENANT_REPOSITORY = 'platform/shops-repo.ts'

/** `file` imports a repository of a feature that is not its own (or, outside features, any). */
function foreignRepositories(file: string): string[] {
  const own = featureOf(rel(file))
  return importsOf(file)
    .map(rel)
    .filter((target) => isRepository(target) && featureOf(target) !== null && featureOf(target) !== own)
    .filter((target) => target !== TENANT_REPOSITORY)
}

describe('layers: the folder graph', () => {
  it('reads the runtime imports of every folder', () => {
    const graph = folderGraph()
    expect(graph.get('features/subscriptions')).toContain('platform')
    expect(graph.get('jobs')).toContain('billing')
    // type-only imports are not dependencies at run time
    expect(runtimeImportsOf(join(SRC, 'http/auth.ts')).map(rel)).not.toContain('platform/shops-repo.ts')
    expect(importsOf(join(SRC, 'http/auth.ts')).map(rel)).toContain('platform/shops-repo.ts')
  })

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ])
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a'])
    graph.get('c')!.delete('a')
    expect(findCycle(graph)).toBeNull()
  })

  it('has no cycle between folders', () => {
    expect(findCycle(folderGraph())).toBeNull()
  })

  it('every folder is in a layer and imports only from its layer or below', () => {
    const upward: string[] = []
    for (const [from, targets] of folderGraph()) {
      for (const to of targets) if (layerOf(to) > layerOf(from)) upward.push(`${from} → ${to}`)
    }
    for (const file of files) if (!COMPOSITION_ROOTS.has(rel(file))) layerOf(folderOf(rel(file)))
    expect(upward).toEqual([])
  })
})

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

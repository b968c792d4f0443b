import { spawnSync } from 'node:child_process'
import { ROOT } from './server-process.ts'

// What each figure of bench/results/latest.json was measured on (issue 21): the commit, whether
// the working tree had changes to the measured code, and when. A section run alone keeps the
// other sections' older figures; the printout says which of them a later commit may have moved
// (a rollup trigger once made a 50 s first sync take hours while only the reports were measured
// again).

/** The code each section measures: a commit touching one of these paths makes its figures stale. */
const SERVER = ['apps/server/src', 'packages/domain/src', 'packages/contract/src']
const EMULATOR = ['packages/shopify-emulator/src']
const WEB = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/domain/src',
  'packages/contract/src',
]

export const SECTION_CODE: Record<string, string[]> = {
  search: [...SERVER, 'bench/seed-mirror.ts', 'bench/load.ts'],
  bundle: [...WEB, 'bench/bundle-size.ts'],
  listPageVitals: [...WEB, ...SERVER, 'bench/web-vitals.ts', 'bench/seed-mirror.ts'],
  detailPageVitals: [...WEB, ...SERVER, ...EMULATOR, 'bench/detail-vitals.ts', 'bench/web-vitals.ts'],
  sync: [...SERVER, ...EMULATOR, 'bench/sync.ts', 'bench/sync-child.ts', 'bench/emulator-process.ts'],
  storefront: ['extensions', ...EMULATOR, 'bench/storefront.ts'],
  billing: [...SERVER, ...EMULATOR, 'bench/billing.ts', 'bench/billing-shop.ts', 'bench/billing-figures.ts'],
  merchant: [...SERVER, ...EMULATOR, 'bench/merchant.ts', 'bench/billing-shop.ts'],
  batch: [...SERVER, ...EMULATOR, 'bench/batch.ts'],
  sellingPlans: [...SERVER, 'bench/selling-plans.ts', 'bench/load.ts'],
  cdp: [...SERVER, 'bench/cdp.ts', 'bench/load.ts'],
  shopops: [...SERVER, 'bench/shopops.ts'],
  analytics: [...SERVER, 'bench/analytics.ts', 'bench/analytics-seed.ts', 'bench/load.ts'],
  ingest: [...SERVER, 'bench/ingest.ts', 'bench/ingest-client.ts'],
  burst: [...SERVER, ...EMULATOR, 'bench/burst.ts'],
  export: [...SERVER, 'bench/export.ts', 'bench/export-child.ts', 'bench/seed-mirror.ts'],
  shipping: [...SERVER, 'bench/shipping.ts'],
  myPage: [...SERVER, 'bench/my-page.ts', 'bench/shipping.ts', 'bench/load.ts'],
}

/** The `--only` name of a section of latest.json (most are the same). */
export const flagOf = (section: string) =>
  ({ listPageVitals: 'vitals', detailPageVitals: 'detail', sellingPlans: 'plans', myPage: 'mypage' })[
    section
  ] ?? section

export type Provenance = { at: string; commit: string | null; dirty: boolean }

function git(args: string[]): string | null {
  const run = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' })
  return run.status === 0 ? run.stdout.trim() : null
}

/** The commit checked out now, and whether the measured code differs from it. */
export function currentProvenance(at: string, section: string): Provenance {
  const paths = SECTION_CODE[section] ?? []
  const changes = paths.length > 0 ? git(['status', '--porcelain', '--', ...paths]) : ''
  return { at, commit: git(['rev-parse', 'HEAD']), dirty: Boolean(changes) }
}

/**
 * Sections of `latest` whose figures a later commit may have changed: a commit after the one
 * measured touched the code the section measures, or the section was measured with uncommitted
 * changes, or it records no commit at all (figures from before provenance was kept).
 */
export function staleSections(latest: Record<string, unknown>): Array<{ section: string; why: string }> {
  const stale: Array<{ section: string; why: string }> = []
  for (const [section, paths] of Object.entries(SECTION_CODE)) {
    const figures = latest[section] as Partial<Provenance> | undefined
    if (!figures) continue
    if (!figures.commit) {
      stale.push({ section, why: `measured ${figures.at ?? 'at an unknown time'} on an unrecorded commit` })
      continue
    }
    if (figures.dirty) {
      stale.push({
        section,
        why: `measured on ${figures.commit.slice(0, 7)} with uncommitted changes to its code`,
      })
      continue
    }
    const later = git(['log', '--format=%h %s', `${figures.commit}..HEAD`, '--', ...paths])
    if (later === null) {
      stale.push({
        section,
        why: `measured on ${figures.commit.slice(0, 7)}, a commit this checkout does not have`,
      })
    } else if (later) {
      const commits = later.split('\n')
      stale.push({
        section,
        why: `measured on ${figures.commit.slice(0, 7)}; ${commits.length} later commit(s) changed its code, the last: ${commits[0]!.slice(0, 90)}`,
      })
    }
  }
  return stale
}

import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SegmentData, ZCustomerListExport, ZSegment, ZSegmentData } from '@teiki/contract'
import iconv from 'iconv-lite'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sweepExportFiles } from '../src/features/cdp/segment-export.ts'
import { sweepCdpJobs } from '../src/jobs/cdp-jobs.ts'
import { type CdpShops, cdpCall, eventually, expectCdpError, startCdpShops } from './support/cdp.ts'

// Issue 15: the segment's tag batch and its export run as pg-boss jobs (jobs/cdp-jobs.ts) on the
// app, its job queue (this file's own schema) and the emulator: progress and per-customer
// failures, the resume of a batch whose worker died (no customer tagged or counted twice), the
// export's mail with its rows and no file left behind, and the sweep of old files.

let env: CdpShops
let shopId: string
let dataDir: string
const platformShop = () => env.emulator.store.shop(env.main)!
const platformCustomer = (id: string) => platformShop().customers.find((c) => String(c.id) === id)!

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'teiki-cdp-jobs-'))
  env = await startCdpShops('cdp-jobs', { jobs: true, dataDir })
  shopId = env.shopIds[env.main]!
}, 120_000)
afterAll(async () => {
  await env?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})
beforeEach(() => env.emulator.faults.reset())

async function segment(name: string, conditions: Record<string, unknown>) {
  const made = await cdpCall(env, 'POST', '/cdp-segment-create', { data: { name, conditions } })
  expect(made.status, made.text).toBe(201)
  return ZSegment.parse(made.body)
}

const segmentData = async (id: string): Promise<SegmentData> =>
  ZSegmentData.parse((await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${id}`)).body)

async function tagEnded(id: string): Promise<SegmentData> {
  return eventually(async () => {
    const d = await segmentData(id)
    return d.tagJob?.status === 'done' || d.tagJob?.status === 'failed' ? d : null
  }, 30_000)
}

/** Customers of the main shop with at least `min` orders, in id order. */
async function repeaters(min: number): Promise<string[]> {
  const { rows } = await env.pool.query<{ id: string }>(
    'select customer_id::text as id from customer_totals where shop_id = $1 and order_count >= $2 order by customer_id',
    [shopId, min],
  )
  return rows.map((r) => r.id)
}

/** tagsAdd calls since `from`, per customer id. */
function tagsAddCalls(from: number, tag: string): Map<string, number> {
  const calls = new Map<string, number>()
  for (const c of env.emulator.callLog.slice(from)) {
    if (!c.rootFields.includes('tagsAdd') || !(c.variables.tags as string[]).includes(tag)) continue
    const id = String(c.variables.id).split('/').pop()!
    calls.set(id, (calls.get(id) ?? 0) + 1)
  }
  return calls
}

describe('tag batch job', () => {
  it('answers 202 at once; the job tags each customer once, with progress and the platform refusal per customer', async () => {
    const seg = await segment('2回以上', { orderCount: { min: 2 } })
    const ids = await repeaters(2)
    expect(ids.length).toBeGreaterThan(3)
    // The platform refuses the first tagsAdd: that customer fails, the batch goes on.
    env.emulator.faults.failMutation('tagsAdd', { field: ['tags'], message: 'Tags are invalid' })
    const from = env.emulator.callLog.length
    const res = await cdpCall(env, 'POST', '/cdp-customer-tag-add/', {
      segmentId: seg.id,
      tags: ['リピーター'],
    })
    expect(res.status, res.text).toBe(202)
    expect(res.body).toMatchObject({ tagJob: { tag: 'リピーター', status: 'queued', done: 0, failed: 0 } })
    const ended = await tagEnded(seg.id)
    expect(ended.tagJob).toMatchObject({
      status: 'done',
      total: ids.length,
      done: ids.length - 1,
      failed: 1,
    })
    expect(ended.tagJob!.failures).toHaveLength(1)
    const failure = ended.tagJob!.failures[0]!
    expect(failure.reason).toContain('Shopify がタグの追加を受け付けませんでした')
    expect(platformCustomer(failure.customerId).tags).not.toContain('リピーター')
    const calls = tagsAddCalls(from, 'リピーター')
    expect([...calls.keys()].sort()).toEqual([...ids].sort())
    expect([...calls.values()].every((n) => n === 1)).toBe(true)
    for (const id of ids.filter((i) => i !== failure.customerId))
      expect(platformCustomer(id).tags).toContain('リピーター')
    const others = platformShop().customers.filter((c) => !ids.includes(String(c.id)))
    expect(others.some((c) => c.tags.includes('リピーター'))).toBe(false)
    // The mirror and the customer's log have it too (through the customers service).
    const { rows } = await env.pool.query<{ tags: string[] }>(
      'select tags from customers where shop_id = $1 and id = $2',
      [shopId, ids.find((i) => i !== failure.customerId)],
    )
    expect(rows[0]!.tags).toContain('リピーター')
  })

  it('resumes a batch whose worker died: decided customers are not asked again, an asked one is read first', async () => {
    const seg = await segment('再開', { orderCount: { min: 1 } })
    const ids = await repeaters(1)
    expect(ids.length).toBeGreaterThan(5)
    const tag = '再開テスト'
    // The state a SIGKILL leaves: two customers recorded, one asked for and tagged on the platform
    // before the kill (its row still 'applying'), one asked for but not reached, the rest pending;
    // the worker on another host, silent for three minutes.
    const { rows } = await env.pool.query<{ id: string }>(
      `insert into cdp_tag_jobs (shop_id, segment_id, tag, conditions, status, total, done, owner, heartbeat_at, updated_at)
       values ($1, $2, $3, $4, 'running', $5, 2, 'another-host:4242', now() - interval '3 minutes', now() - interval '3 minutes')
       returning id::text`,
      [shopId, seg.id, tag, JSON.stringify(seg.conditions), ids.length],
    )
    const jobId = rows[0]!.id
    const state = (i: number) => (i < 2 ? 'done' : i < 4 ? 'applying' : 'pending')
    for (const [i, id] of ids.entries()) {
      await env.pool.query(
        'insert into cdp_tag_job_items (shop_id, job_id, customer_id, status) values ($1, $2, $3, $4)',
        [shopId, jobId, id, state(i)],
      )
    }
    platformCustomer(ids[2]!).tags.push(tag)
    const from = env.emulator.callLog.length
    expect((await sweepCdpJobs(env.jobs!, { db: env.pool, dataDir }, false)).tags).toBeGreaterThan(0)
    const ended = await tagEnded(seg.id)
    expect(ended.tagJob).toMatchObject({
      id: jobId,
      status: 'done',
      total: ids.length,
      done: ids.length,
      failed: 0,
    })
    const calls = tagsAddCalls(from, tag)
    expect([...calls.keys()].sort()).toEqual(ids.slice(3).sort())
    expect([...calls.values()].every((n) => n === 1)).toBe(true)
    for (const id of ids.slice(2)) expect(platformCustomer(id).tags).toContain(tag)
    const counted = await env.pool.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from cdp_tag_job_items where job_id = $1 group by status',
      [jobId],
    )
    expect(counted.rows).toEqual([{ status: 'done', n: ids.length }])
  })

  it('one batch per segment at a time (409 in Japanese), a new one once it ended', async () => {
    const seg = await segment('同時', { tags: { any: ['VIP'] } })
    const { rows } = await env.pool.query<{ id: string }>(
      `insert into cdp_tag_jobs (shop_id, segment_id, tag, conditions, status, owner, heartbeat_at)
       values ($1, $2, 'C', '{}', 'running', 'another-host:1', now()) returning id::text`,
      [shopId, seg.id],
    )
    expectCdpError(
      await cdpCall(env, 'POST', '/cdp-customer-tag-add/', { segmentId: seg.id, tags: ['D'] }),
      409,
      '実行中',
    )
    expect((await segmentData(seg.id)).tagJob).toMatchObject({ tag: 'C', status: 'running' })
    await env.pool.query(`update cdp_tag_jobs set status = 'done', finished_at = now() where id = $1`, [
      rows[0]!.id,
    ])
    const res = await cdpCall(env, 'POST', '/cdp-customer-tag-add/', { segmentId: seg.id, tags: ['D'] })
    expect(res.status, res.text).toBe(202)
    expect((await tagEnded(seg.id)).tagJob).toMatchObject({ tag: 'D', status: 'done' })
  })
})

/** The mail of an export as the outbox stored it (`<id>.eml`: no SMTP in tests), parsed. */
async function exportMail(exportId: string) {
  // The export's end and its mail commit together; the send follows.
  const mailId = await eventually(async () => {
    const { rows } = await env.pool.query<{ mail_id: string; status: string }>(
      `select e.mail_id::text, m.status from cdp_segment_exports e join mail_outbox m on m.id = e.mail_id
       where e.id = $1`,
      [exportId],
    )
    return rows[0]?.status === 'stored' ? rows[0].mail_id : null
  })
  return simpleParser(await readFile(join(dataDir, 'outbox', `${mailId}.eml`)))
}

const exportFiles = async () => readdir(join(dataDir, 'cdp-exports')).catch(() => [] as string[])
/** No file left once the export's send is over (it is removed right after). */
const noFilesLeft = () => eventually(async () => (await exportFiles()).length === 0)

describe('segment export job', () => {
  it('answers 202; the job mails the CSV (UTF-8 with BOM) with the segment rows and removes its file', async () => {
    const seg = await segment('一回以上', { orderCount: { min: 1 } })
    const ids = await repeaters(1)
    const res = await cdpCall(env, 'POST', '/cdp-customer-list-export', {
      segmentId: seg.id,
      email: 'owner@example.jp',
    })
    expect(res.status, res.text).toBe(202)
    const accepted = ZCustomerListExport.parse(res.body).exportJob
    expect(accepted).toMatchObject({ status: 'queued', email: 'owner@example.jp', rows: null })
    const ended = await eventually(async () => {
      const d = await segmentData(seg.id)
      return d.exportJob?.status === 'done' ? d.exportJob : null
    }, 30_000)
    expect(ended).toMatchObject({ id: accepted.id, rows: ids.length })
    const mail = await exportMail(accepted.id)
    expect(mail.subject).toBe(`【Teiki】セグメント「一回以上」の顧客リスト（${ids.length}件）`)
    expect(mail.text).toContain('条件: ')
    expect(mail.attachments).toHaveLength(1)
    expect(mail.attachments[0]!.filename).toBe(ended.fileName)
    const bytes = mail.attachments[0]!.content
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('顧客ID,顧客名,メールアドレス,タグ,購入回数,LTV,通貨,初回購入日')
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(ids)
    const first = platformCustomer(ids[0]!)
    expect(lines[1]).toMatch(new RegExp(`^${ids[0]},${first.lastName} ${first.firstName},${first.email},`))
    await noFilesLeft()
  })

  it('Shift_JIS when asked; 404 for another shop’s segment, 400 in Japanese for a bad address', async () => {
    const seg = await segment('VIP', { tags: { any: ['VIP'] } })
    const res = await cdpCall(env, 'POST', '/cdp-customer-list-export', {
      segmentId: seg.id,
      email: 'sjis@example.jp',
      encoding: 'shift_jis',
    })
    expect(res.status, res.text).toBe(202)
    const id = ZCustomerListExport.parse(res.body).exportJob.id
    await eventually(async () => (await segmentData(seg.id)).exportJob?.status === 'done', 30_000)
    const mail = await exportMail(id)
    expect([...mail.attachments[0]!.content.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf])
    const csv = iconv.decode(mail.attachments[0]!.content, 'Shift_JIS').split('\r\n')
    expect(csv[0]).toBe('顧客ID,顧客名,メールアドレス,タグ,購入回数,LTV,通貨,初回購入日')
    await noFilesLeft()
    const other = await cdpCall(
      env,
      'POST',
      '/cdp-segment-create',
      { data: { name: '他店', conditions: {} } },
      { domain: env.other },
    )
    expectCdpError(
      await cdpCall(env, 'POST', '/cdp-customer-list-export', {
        segmentId: ZSegment.parse(other.body).id,
        email: 'a@example.jp',
      }),
      404,
      'セグメント',
    )
    expectCdpError(
      await cdpCall(env, 'POST', '/cdp-customer-list-export', { segmentId: seg.id, email: 'nope' }),
      400,
      'メールアドレスの形式',
    )
  })

  it('an export that cannot be written ends failed, with a mail that says so and no file', async () => {
    const seg = await segment('書けない', {})
    const dir = join(dataDir, 'cdp-exports')
    await rm(dir, { recursive: true, force: true })
    await writeFile(dir, 'not a folder')
    try {
      const res = await cdpCall(env, 'POST', '/cdp-customer-list-export', {
        segmentId: seg.id,
        email: 'fail@example.jp',
      })
      expect(res.status, res.text).toBe(202)
      const ended = await eventually(async () => {
        const job = (await segmentData(seg.id)).exportJob
        return job?.status === 'done' || job?.status === 'failed' ? job : null
      }, 30_000)
      expect(ended).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('CSVの作成に失敗しました'),
      })
      const mail = await exportMail(ended.id)
      expect(mail.subject).toBe('【Teiki】セグメント「書けない」の顧客リストを作成できませんでした')
      expect(mail.attachments).toHaveLength(0)
    } finally {
      await rm(dir, { force: true })
    }
    await noFilesLeft()
  })

  it('the sweep removes files a crash left behind after a day, and keeps younger ones it knows nothing of', async () => {
    const dir = join(dataDir, 'cdp-exports')
    await mkdir(dir, { recursive: true })
    const old = join(dir, '990000001.csv.part')
    const young = join(dir, '990000002.csv')
    await writeFile(old, 'x')
    await writeFile(young, 'y')
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    await utimes(old, twoDaysAgo, twoDaysAgo)
    expect(await sweepExportFiles(env.pool, dataDir)).toBe(1)
    expect(await exportFiles()).toEqual(['990000002.csv'])
    expect((await stat(young)).size).toBe(1)
    await rm(young)
  })

  it('keeps an ended export’s file while its mail waits for a retry, removes it once the outbox is done', async () => {
    const seg = await segment('再送待ち', {})
    const mail = await env.pool.query<{ id: string }>(
      `insert into mail_outbox (shop_id, to_address, subject, body, attachments, status, next_attempt_at)
       values ($1, 'retry@example.jp', 's', 'b', '[]', 'pending', now() + interval '1 hour') returning id::text`,
      [shopId],
    )
    const mailId = mail.rows[0]!.id
    const made = await env.pool.query<{ id: string }>(
      `insert into cdp_segment_exports (shop_id, segment_id, segment_name, conditions, email, encoding, status, mail_id)
       values ($1, $2, '再送待ち', '{}', 'retry@example.jp', 'utf-8', 'done', $3) returning id::text`,
      [shopId, seg.id, mailId],
    )
    const file = `${made.rows[0]!.id}.csv`
    await writeFile(join(dataDir, 'cdp-exports', file), 'z')
    expect(await sweepExportFiles(env.pool, dataDir)).toBe(0)
    expect(await exportFiles()).toEqual([file])
    await env.pool.query(`update mail_outbox set status = 'failed' where id = $1`, [mailId])
    expect(await sweepExportFiles(env.pool, dataDir)).toBe(1)
    expect(await exportFiles()).toEqual([])
  })
})

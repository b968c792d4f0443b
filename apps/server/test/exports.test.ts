import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { OutgoingHttpHeaders } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ExportJob, ZErrorResponse, ZExportJob, ZExportJobList } from '@teiki/contract'
import iconv from 'iconv-lite'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CSV_HEADER } from '../src/features/exports/csv.ts'
import { ExportBusy, runExport } from '../src/features/exports/run.ts'
import { createExportJob } from '../src/features/exports/service.ts'
import type { AppInstance } from '../src/http/app.ts'
import { type Jobs, startJobs } from '../src/jobs/boss.ts'
import { createMailer, type Mailer } from '../src/mail/mailer.ts'
import type { ShopRow } from '../src/platform/shops-repo.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { fakeSmtpServer } from './support/fake-smtp.ts'
import { buildTestApp, createShop, type SeedContract, seedContracts, testPool } from './support/fixtures.ts'

let pool: pg.Pool
let app: AppInstance
let mailer: Mailer
let jobs: Jobs
let dataDir: string
let outboxDir: string
let shop: Awaited<ReturnType<typeof createShop>>
let other: Awaited<ReturnType<typeof createShop>>
let shopRow: ShopRow

const NOTE_QUOTED = 'お届けは午前中, "玄関前" に\n置き配希望'
const NOTE_FORMULA = '=HYPERLINK("http://example.com")'
const NOTE_CP932 = 'お試し〜定期 ¥1,980 😀 ありがとう'

const person = (id: string, lastName: string, firstName: string, email: string) => ({
  id,
  lastName,
  firstName,
  email,
})

// Five contracts whose fields differ on every filter; ids in creation order.
const C1 = '30000000001'
const C2 = '30000000002'
const C3 = '30000000003'
const C4 = '30000000004'
const C5 = '30000000005'
const ALL = [C1, C2, C3, C4, C5]

const contracts: SeedContract[] = [
  // 2026-11-30T15:30Z is 2026年12月1日 0:30 in Japan.
  {
    id: C1,
    customer: person('7300000000001', '山田', '太郎', 'Taro.Yamada@example.jp'),
    status: 'ACTIVE',
    nextBillingDate: '2026-11-30T15:30:00Z',
  },
  {
    id: C2,
    customer: person('7300000000002', '佐藤', '花子', 'hanako@example.jp'),
    status: 'PAUSED',
    nextBillingDate: '2026-11-30T14:59:59Z',
  },
  {
    id: C3,
    customer: person('7300000000003', '髙橋', '次郎', 'jiro@example.jp'),
    status: 'FAILED',
    nextBillingDate: '2026-12-10T01:00:00Z',
  },
  {
    id: C4,
    customer: person('7300000000004', '鈴木', '一郎', 'ichiro@example.jp'),
    status: 'EXPIRED',
    nextBillingDate: null,
  },
  {
    id: C5,
    customer: person('7300000000005', '伊藤', 'さくら', 'sakura@example.jp'),
    status: 'CANCELLED',
    nextBillingDate: '2027-01-05T03:00:00Z',
  },
]

// created_at (Japan day in the comment), interval, count, note, delivery price.
const details: Array<[string, string, string, number, string | null, string | null]> = [
  [C1, '2026-01-09T15:30:00Z' /* 2026-01-10 */, 'MONTH', 1, NOTE_QUOTED, '500.0000'],
  [C2, '2026-02-01T14:00:00Z' /* 2026-02-01 */, 'WEEK', 2, NOTE_FORMULA, null],
  [C3, '2026-02-01T15:00:00Z' /* 2026-02-02 */, 'MONTH', 2, null, '0'],
  [C4, '2026-03-15T00:00:00Z' /* 2026-03-15 */, 'DAY', 10, null, null],
  [C5, '2026-04-01T00:00:00Z' /* 2026-04-01 */, 'MONTH', 1, NOTE_CP932, '350'],
]

// Purchase counts: C1 2 (a third order is cancelled), C2 0, C3 6 (set to 5, one order
// since; the order before the correction does not count), C4 1, C5 0.
const PURCHASES: Record<string, number> = { [C1]: 2, [C2]: 0, [C3]: 6, [C4]: 1, [C5]: 0 }

beforeAll(async () => {
  pool = testPool()
  dataDir = await mkdtemp(join(tmpdir(), 'teiki-export-test-'))
  outboxDir = join(dataDir, 'outbox')
  mailer = createMailer({ db: pool, outboxDir, from: 'Teiki テスト <no-reply@teiki.invalid>' })
  // Exports run on the job queue, as in production (its own schema: no other file's workers).
  jobs = await startJobs({ db: pool, schema: 'pgboss_exports_test' })
  app = await buildTestApp(pool, {
    jobs,
    exportJobs: { cron: false, pollingIntervalSeconds: 0.5 },
    mailJobs: { cron: false },
    logger: { level: 'error' },
    dataDir,
    mailer,
  })
  await app.ready()
  shop = await createShop(pool, { prefix: 'export' })
  other = await createShop(pool, { prefix: 'export-other' })
  shopRow = (await findInstalledShop(pool, shop.domain))!

  await seedContracts(pool, shop.id, contracts)
  for (const [id, created, interval, count, note, delivery] of details) {
    await pool.query(
      `update subscription_contracts set created_at = $3, interval = $4, interval_count = $5, note = $6,
         delivery_price = $7 where shop_id = $1 and id = $2`,
      [shop.id, id, created, interval, count, note, delivery],
    )
  }
  const line = (
    contract: string,
    n: number,
    title: string,
    variant: string | null,
    qty: number,
    price: string,
  ) =>
    pool.query(
      `insert into subscription_lines (shop_id, contract_id, id, title, variant_title, quantity, current_price, position)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [shop.id, contract, `gid://shopify/SubscriptionLine/${contract}-${n}`, title, variant, qty, price, n],
    )
  await line(C1, 0, 'コーヒー豆', '200g', 2, '1200.0000')
  await line(C1, 1, 'ドリップバッグ', 'Default Title', 1, '980')
  await line(C2, 0, '緑茶, 特選', null, 3, '1500')
  await line(C5, 0, 'お試しセット', 'S', 1, '1980')
  const order = (id: number, contract: string, created: string, cancelled: string | null = null) =>
    pool.query(
      `insert into orders (shop_id, id, contract_id, created_at, cancelled_at) values ($1, $2, $3, $4, $5)`,
      [shop.id, id, contract, created, cancelled],
    )
  await order(9001, C1, '2026-02-10T00:00:00Z')
  await order(9002, C1, '2026-03-10T00:00:00Z')
  await order(9003, C1, '2026-04-10T00:00:00Z', '2026-04-11T00:00:00Z')
  await pool.query(
    `update subscription_contracts set order_count_set = 5, order_count_set_at = '2026-05-01T00:00:00Z'
     where shop_id = $1 and id = $2`,
    [shop.id, C3],
  )
  await order(9004, C3, '2026-04-01T00:00:00Z')
  await order(9005, C3, '2026-06-01T00:00:00Z')
  await order(9006, C4, '2026-03-20T00:00:00Z')

  // The other shop has a contract too: it never shows up in this shop's files.
  await seedContracts(pool, other.id, [
    {
      id: '30000000009',
      customer: person('7300000000009', '他店', '客', 'other@example.jp'),
      nextBillingDate: '2026-11-30T15:30:00Z',
    },
  ])
})

afterAll(async () => {
  await jobs.stop(60_000)
  await app.close()
  await pool.query('drop schema if exists pgboss_exports_test cascade')
  await pool.end()
  await rm(dataDir, { recursive: true, force: true })
})

const auth = (s: { domain: string; secret: string }) => `shop=${s.domain}&secret=${s.secret}`
const BASE = '/app-admin/export-subscription-contracts'

async function post(body: unknown, as = shop) {
  return app.inject({ method: 'POST', url: `${BASE}?${auth(as)}`, payload: body as object })
}

async function getJob(id: string, as = shop): Promise<ExportJob> {
  const res = await app.inject({ method: 'GET', url: `${BASE}/${id}?${auth(as)}` })
  expect(res.statusCode).toBe(200)
  return ZExportJob.parse(res.json())
}

/** Polls the job the way the page does until it has ended. */
async function waitForJob(id: string): Promise<ExportJob> {
  for (let i = 0; i < 2_000; i++) {
    const job = await getJob(id)
    if (job.status === 'done' || job.status === 'failed') return job
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`export ${id} did not end`)
}

async function download(id: string, as = shop) {
  return app.inject({ method: 'GET', url: `${BASE}/${id}/download?${auth(as)}` })
}

/** POST, wait, download: the job and the raw file. */
async function exportFile(body: Record<string, unknown>) {
  const res = await post(body)
  expect(res.statusCode).toBe(202)
  const queued = ZExportJob.parse(res.json())
  expect(queued.status).toBe('queued')
  const job = await waitForJob(queued.id)
  expect(job.status).toBe('done')
  const file = await download(job.id)
  expect(file.statusCode).toBe(200)
  return { job, file, bytes: file.rawPayload }
}

/** RFC 4180 reader (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      record.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i++
    } else field += c
  }
  if (field !== '' || record.length > 0) throw new Error('the file does not end with CRLF')
  return records
}

function utf8Rows(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  return parseCsv(bytes.subarray(3).toString('utf8'))
}

async function exportIds(filter: Record<string, unknown>): Promise<string[]> {
  const { job, bytes } = await exportFile(filter)
  const rows = utf8Rows(bytes).slice(1)
  expect(job.doneRows).toBe(rows.length)
  expect(job.totalRows).toBe(rows.length)
  return rows.map((row) => row[0]!)
}

describe('POST /export-subscription-contracts: input', () => {
  it.each([
    [{ email: 'not-an-address' }, 'メールアドレスの形式が正しくありません'],
    [
      { nextBillingDateStartDate: '2026-12-02', nextBillingDateEndDate: '2026-12-01' },
      '次回請求日の開始日は終了日以前の日付を指定してください',
    ],
    [
      { createdDateStartDate: '2026-03-01', createdDateEndDate: '2026-02-28' },
      '作成日の開始日は終了日以前の日付を指定してください',
    ],
    [{ createdDateStartDate: '2026-02-30' }, '存在しない日付'],
    [{ nextBillingDateEndDate: '2026/12/01' }, '日付は YYYY-MM-DD の形式で指定してください'],
    [{ purchaseCountMin: 3, purchaseCountMax: 1 }, '購入回数の最小は最大以下で指定してください'],
    [{ purchaseCountMin: -1 }, '購入回数の最小は0以上で指定してください'],
    [{ statusFilterDirect: 'ACTIVE,DELETED' }, '不明なステータスです: DELETED'],
    [{ statusFilter: ['ACTIVE', 'GONE'] }, 'statusFilter'],
    [{ interval: 'YEARLY' }, '請求間隔の単位は DAY・WEEK・MONTH のいずれかを指定してください'],
    [{ intervalCount: 0 }, '請求間隔の数は1以上で指定してください'],
    [{ encoding: 'euc-jp' }, '文字コードは utf-8 または shift_jis を指定してください'],
    [{ statusFilters: ['ACTIVE'] }, '不明な項目です: statusFilters'],
  ])('%j → 400 in Japanese', async (body, message) => {
    const res = await post(body)
    expect(res.statusCode).toBe(400)
    const error = ZErrorResponse.parse(res.json()).error
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain('入力内容が正しくありません')
    expect(error.message).toContain(message)
  })

  it('records no job for a refused request', async () => {
    const before = await pool.query('select count(*)::int as n from contract_exports where shop_id = $1', [
      shop.id,
    ])
    await post({ purchaseCountMin: 3, purchaseCountMax: 1 })
    const after = await pool.query('select count(*)::int as n from contract_exports where shop_id = $1', [
      shop.id,
    ])
    expect(after.rows[0].n).toBe(before.rows[0].n)
  })
})

describe('the UTF-8 file', () => {
  let rows: string[][]
  let raw: string
  let job: ExportJob
  let headers: OutgoingHttpHeaders

  beforeAll(async () => {
    const result = await exportFile({})
    job = result.job
    headers = result.file.headers
    raw = result.bytes.subarray(3).toString('utf8')
    rows = utf8Rows(result.bytes)
  })

  it('has the Japanese header and every contract of the shop, in id order', () => {
    expect(rows[0]).toEqual([...CSV_HEADER])
    expect(rows.slice(1).map((row) => row[0])).toEqual(ALL)
  })

  it('writes each column as the merchant reads it (Japan-time dates, labels, sums)', () => {
    const byId = new Map(rows.slice(1).map((row) => [row[0], row]))
    expect(byId.get(C1)).toEqual([
      C1,
      '有効',
      '7300000000001',
      '山田 太郎',
      'Taro.Yamada@example.jp',
      '2026/12/01',
      '2026/01/10',
      '1ヶ月ごと',
      '2',
      'コーヒー豆 / 200g × 2 | ドリップバッグ × 1',
      '3380',
      'JPY',
      '500',
      NOTE_QUOTED,
    ])
    expect(byId.get(C2)?.slice(1, 12)).toEqual([
      '一時停止',
      '7300000000002',
      '佐藤 花子',
      'hanako@example.jp',
      '2026/11/30',
      '2026/02/01',
      '2週間ごと',
      '0',
      '緑茶, 特選 × 3',
      '4500',
      'JPY',
    ])
    expect(byId.get(C3)?.slice(1, 13)).toEqual([
      '決済失敗',
      '7300000000003',
      '髙橋 次郎',
      'jiro@example.jp',
      '2026/12/10',
      '2026/02/02',
      '2ヶ月ごと',
      '6',
      '',
      '',
      'JPY',
      '0',
    ])
    expect(byId.get(C4)?.slice(1, 9)).toEqual([
      '期限切れ',
      '7300000000004',
      '鈴木 一郎',
      'ichiro@example.jp',
      '',
      '2026/03/15',
      '10日ごと',
      '1',
    ])
    expect(byId.get(C5)?.[1]).toBe('解約済み')
  })

  it('quotes commas, quotes and line breaks (RFC 4180) and ends records with CRLF', () => {
    expect(raw).toContain(`,"お届けは午前中, ""玄関前"" に\n置き配希望"\r\n`)
    expect(raw).toContain(',"緑茶, 特選 × 3",')
    // Every line break outside the quoted note is CRLF.
    expect(raw.replace(NOTE_QUOTED.replace('"玄関前"', '""玄関前""'), '').match(/(?<!\r)\n/g)).toBeNull()
  })

  it('defuses a cell Excel would run as a formula', () => {
    const c2 = rows.find((row) => row[0] === C2)!
    expect(c2[13]).toBe(`'${NOTE_FORMULA}`)
  })

  it('reports progress that ends with done = total = rows, and the file size', () => {
    expect(job.totalRows).toBe(5)
    expect(job.doneRows).toBe(5)
    expect(job.byteSize).toBe(Buffer.byteLength(raw) + 3)
    expect(job.finishedAt).not.toBeNull()
    expect(job.downloadPath).toBe(`${BASE}/${job.id}/download`)
  })

  it('is served as a UTF-8 CSV attachment with an RFC 5987 file name', () => {
    expect(headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(job.fileName).toMatch(/^subscriptions-\d{8}-\d{4}\.csv$/)
    expect(headers['content-disposition']).toBe(
      `attachment; filename="${job.fileName}"; filename*=UTF-8''${job.fileName}`,
    )
    expect(Number(headers['content-length'])).toBe(job.byteSize)
  })

  it('is listed with the latest jobs', async () => {
    const res = await app.inject({ method: 'GET', url: `${BASE}?${auth(shop)}` })
    const list = ZExportJobList.parse(res.json()).exports
    expect(list.map((j) => j.id)).toContain(job.id)
    expect(list.length).toBeLessThanOrEqual(10)
  })
})

describe('filters', () => {
  it.each([
    ['statusFilter', { statusFilter: ['PAUSED'] }, [C2]],
    ['statusFilterDirect (text, any case)', { statusFilterDirect: 'active, expired' }, [C1, C4]],
    [
      'both status spellings: their union',
      { statusFilter: ['PAUSED'], statusFilterDirect: 'FAILED' },
      [C2, C3],
    ],
    // Japan days: C2 is billed 30 Nov 23:59:59 JST, C1 on 1 Dec 00:30 JST.
    [
      'next billing, one Japan day',
      { nextBillingDateStartDate: '2026-11-30', nextBillingDateEndDate: '2026-11-30' },
      [C2],
    ],
    ['next billing from', { nextBillingDateStartDate: '2026-12-01' }, [C1, C3, C5]],
    ['next billing until', { nextBillingDateEndDate: '2026-12-01' }, [C1, C2]],
    [
      'created, one Japan day',
      { createdDateStartDate: '2026-02-01', createdDateEndDate: '2026-02-01' },
      [C2],
    ],
    ['created range', { createdDateStartDate: '2026-01-10', createdDateEndDate: '2026-02-02' }, [C1, C2, C3]],
    ['purchase count min', { purchaseCountMin: 2 }, [C1, C3]],
    ['purchase count max', { purchaseCountMax: 0 }, [C2, C5]],
    ['purchase count range', { purchaseCountMin: 1, purchaseCountMax: 2 }, [C1, C4]],
    ['interval', { interval: 'MONTH' }, [C1, C3, C5]],
    ['interval count', { intervalCount: 2 }, [C2, C3]],
    ['interval and count', { interval: 'MONTH', intervalCount: 1 }, [C1, C5]],
    ['all together', { statusFilter: ['ACTIVE', 'FAILED'], interval: 'MONTH', purchaseCountMin: 3 }, [C3]],
    ['nothing matches', { interval: 'DAY', statusFilter: ['ACTIVE'] }, []],
  ])('%s', async (_name, filter, expected) => {
    expect(await exportIds(filter)).toEqual(expected)
  })

  it('purchase counts in the file match the seeded orders', async () => {
    const { bytes } = await exportFile({})
    const counts = Object.fromEntries(
      utf8Rows(bytes)
        .slice(1)
        .map((row) => [row[0], Number(row[8])]),
    )
    expect(counts).toEqual(PURCHASES)
  })
})

describe('the Shift_JIS file', () => {
  it('is Windows-31J: decodes to the same text, with unencodable characters as ?', async () => {
    const sjis = await exportFile({ encoding: 'shift_jis' })
    const utf8 = await exportFile({ encoding: 'utf-8' })
    expect(sjis.job.encoding).toBe('shift_jis')
    expect(sjis.file.headers['content-type']).toBe('text/csv; charset=Shift_JIS')
    expect(sjis.bytes[0]).not.toBe(0xef) // no BOM
    // Really CP932, not UTF-8: 山田 is 8e 52 93 63.
    expect(sjis.bytes.includes(Buffer.from([0x8e, 0x52, 0x93, 0x63]))).toBe(true)

    const decoded = iconv.decode(sjis.bytes, 'cp932')
    const expected = utf8.bytes
      .subarray(3)
      .toString('utf8')
      .replaceAll('〜', '～')
      .replaceAll('¥', '￥')
      .replaceAll('😀', '?')
    expect(decoded).toBe(expected)
    const rows = parseCsv(decoded)
    expect(rows[0]).toEqual([...CSV_HEADER])
    const c5 = rows.find((row) => row[0] === C5)!
    expect(c5[3]).toBe('伊藤 さくら')
    expect(c5[13]).toBe('お試し～定期 ￥1,980 ? ありがとう')
    expect(rows.find((row) => row[0] === C3)![3]).toBe('髙橋 次郎') // an NEC/IBM extension kanji survives
  })
})

describe('progress', () => {
  it('records done rows after every batch; small batches write the same file as one batch', async () => {
    const progress: number[] = []
    // Watches the progress updates the job writes (the real pool does the work).
    const watched = new Proxy(pool, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver)
        return (text: unknown, values?: unknown[]) => {
          if (
            typeof text === 'string' &&
            /^update contract_exports set done_rows = \$3, heartbeat_at = now\(\) where/.test(text)
          ) {
            progress.push(Number(values?.[2]))
          }
          return target.query(text as string, values)
        }
      },
    }) as pg.Pool

    const small = await createExportJob(pool, shopRow, { encoding: 'utf-8' })
    const ended = await runExport({ db: watched, dataDir, batchSize: 2 }, shopRow, small.id)
    expect(ended.status).toBe('done')
    expect(progress).toEqual([2, 4, 5])
    expect(ended.total_rows).toBe(5)
    expect(ended.done_rows).toBe(5)

    const whole = await createExportJob(pool, shopRow, { encoding: 'utf-8' })
    const wholeEnded = await runExport({ db: pool, dataDir }, shopRow, whole.id)
    expect(await readFile(ended.file_path!)).toEqual(await readFile(wholeEnded.file_path!))
  })

  it('a job that cannot write its file ends failed, with a Japanese message', async () => {
    const blocker = join(dataDir, 'not-a-folder')
    await writeFile(blocker, 'x')
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8', email: 'failed@example.jp' })
    const ended = await runExport({ db: pool, dataDir: blocker, mailer }, shopRow, job.id)
    expect(ended.status).toBe('failed')
    expect(ended.error).toBe('CSVの作成に失敗しました。時間をおいてもう一度お試しください。')
    expect(ended.finished_at).not.toBeNull()
    // The address that waited for the file hears about the failure.
    const { rows } = await pool.query(
      `select subject, body, attachments from mail_outbox where shop_id = $1 and to_address = 'failed@example.jp'`,
      [shop.id],
    )
    expect(rows).toEqual([
      {
        subject: '【Teiki】定期購買契約のCSVエクスポートに失敗しました',
        body: expect.stringContaining(ended.error!),
        attachments: [],
      },
    ])
    const res = await download(job.id)
    expect(res.statusCode).toBe(409)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain('失敗したためダウンロードできません')
  })
})

describe('access', () => {
  it("another shop's job is not found, for its progress and its file", async () => {
    const { job } = await exportFile({})
    for (const url of [`${BASE}/${job.id}`, `${BASE}/${job.id}/download`]) {
      const res = await app.inject({ method: 'GET', url: `${url}?${auth(other)}` })
      expect(res.statusCode).toBe(404)
      expect(ZErrorResponse.parse(res.json()).error).toEqual({
        code: 'NOT_FOUND',
        message: 'エクスポートが見つかりません。',
      })
    }
    const list = await app.inject({ method: 'GET', url: `${BASE}?${auth(other)}` })
    expect(ZExportJobList.parse(list.json()).exports.map((j) => j.id)).not.toContain(job.id)
  })

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])('unknown id %s → 404', async (id) => {
    const res = await app.inject({ method: 'GET', url: `${BASE}/${id}?${auth(shop)}` })
    expect(res.statusCode).toBe(404)
  })

  it('downloading before the job is done → 409', async () => {
    // A queued job nobody runs: still queued when downloaded.
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8' })
    const res = await download(job.id)
    expect(res.statusCode).toBe(409)
    expect(ZErrorResponse.parse(res.json()).error).toEqual({
      code: 'CONFLICT',
      message: 'エクスポートはまだ完了していません。完了してからダウンロードしてください。',
    })
    expect((await getJob(job.id)).downloadPath).toBeNull()
  })

  it('needs credentials', async () => {
    const res = await app.inject({ method: 'POST', url: BASE, payload: {} })
    expect(res.statusCode).toBe(401)
  })
})

/** Subject of an .eml: unfolded, RFC 2047 encoded words decoded. */
function emlSubject(eml: string): string {
  const match = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(eml)
  if (!match) throw new Error('no Subject header')
  return match[1]!
    .replace(/\?=\r\n[ \t]+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_all, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    )
}

type OutboxRow = {
  id: string
  to_address: string
  subject: string
  body: string
  status: string
  error: string | null
  attachments: Array<{ filename: string; contentType: string; size: number }>
}

/** Waits until the outbox has sent (or given up on) the mails to `to`. */
async function mailSettled(to: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where to_address = $1 and status in ('pending', 'sending')`,
      [to],
    )
    if (rows[0]!.n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`mail to ${to} was not sent`)
}

describe('mail', () => {
  it('sends the finished file to the given address: recorded in mail_outbox, written as .eml', async () => {
    const { job, bytes } = await exportFile({ email: 'tantou@example.jp', statusFilter: ['ACTIVE'] })
    expect(job.email).toBe('tantou@example.jp')
    expect(job.error).toBeNull()
    // The mail is decided with the job's end and sent right after it.
    await mailSettled('tantou@example.jp')
    const { rows } = await pool.query<OutboxRow>(
      `select id::text, to_address, subject, body, status, error, attachments from mail_outbox
       where shop_id = $1 and to_address = 'tantou@example.jp'`,
      [shop.id],
    )
    expect(rows).toHaveLength(1)
    const mail = rows[0]!
    expect(mail.status).toBe('stored')
    expect(mail.subject).toBe('【Teiki】定期購買契約のCSVエクスポートが完了しました（1件）')
    expect(mail.body).toContain('件数: 1件')
    expect(mail.body).toContain('絞り込み条件: ステータス 有効')
    expect(mail.body).toContain('CSVファイルを添付しました。')
    expect(mail.attachments).toEqual([
      expect.objectContaining({
        filename: job.fileName,
        contentType: 'text/csv; charset=utf-8',
        size: bytes.length,
      }),
    ])

    const emlPath = join(outboxDir, `${mail.id}.eml`)
    expect(existsSync(emlPath)).toBe(true)
    const eml = await readFile(emlPath, 'utf8')
    expect(emlSubject(eml)).toBe(mail.subject)
    expect(eml).toMatch(/^To: tantou@example\.jp\r$/m)
    expect(eml).toContain(job.fileName)
    // The attachment is the file: its first base64 line is in the message.
    expect(eml).toContain(bytes.subarray(0, 57).toString('base64'))
  })

  it('does not attach a file above the limit and says to download it', async () => {
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8', email: 'big@example.jp' })
    const ended = await runExport({ db: pool, dataDir, mailer, mailAttachmentLimit: 100 }, shopRow, job.id)
    expect(ended.status).toBe('done')
    const { rows } = await pool.query<OutboxRow>(
      `select body, attachments, status from mail_outbox where shop_id = $1 and to_address = 'big@example.jp'`,
      [shop.id],
    )
    expect(rows[0]!.attachments).toEqual([])
    expect(rows[0]!.body).toContain('ファイルが大きいため')
    expect(rows[0]!.body).toContain('「CSVエクスポート」からダウンロードしてください')
  })

  it('a mail that cannot be sent is retried later by the outbox; the file stays downloadable', async () => {
    // A port nothing listens on.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))
    const smtp = createMailer({
      db: pool,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir,
      from: 'a@example.jp',
    })
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8', email: 'down@example.jp' })
    const ended = await runExport({ db: pool, dataDir, mailer: smtp }, shopRow, job.id)
    smtp.close()
    expect(ended.status).toBe('done')
    expect(ended.error).toBe(
      'CSVは作成できましたが、down@example.jp へのメール送信に失敗しました（自動で再送します）。ダウンロードしてご利用ください。',
    )
    const { rows } = await pool.query<OutboxRow & { attempts: number; later: boolean }>(
      `select status, error, attempts, next_attempt_at > now() + interval '30 seconds' as later
       from mail_outbox where shop_id = $1 and to_address = 'down@example.jp'`,
      [shop.id],
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.status).toBe('pending')
    expect(rows[0]!.attempts).toBe(1)
    expect(rows[0]!.later).toBe(true)
    expect(rows[0]!.error).toBeTruthy()
    expect((await download(job.id)).statusCode).toBe(200)
  })

  it('sends through SMTP when configured', async () => {
    const server = await fakeSmtpServer()
    try {
      const smtp = createMailer({
        db: pool,
        smtpUrl: `smtp://127.0.0.1:${server.port}`,
        outboxDir,
        from: 'Teiki <no-reply@teiki.invalid>',
      })
      const result = await smtp.send({
        shopId: shop.id,
        to: 'smtp@example.jp',
        subject: '日本語の件名です',
        text: '本文も日本語です。',
      })
      smtp.close()
      expect(result.status).toBe('sent')
      expect(result.emlPath).toBeNull()
      expect(server.messages).toHaveLength(1)
      expect(server.messages[0]!.rcpt).toEqual(['smtp@example.jp'])
      expect(emlSubject(server.messages[0]!.data)).toBe('日本語の件名です')
      const { rows } = await pool.query<OutboxRow>(`select status from mail_outbox where id = $1`, [
        result.id,
      ])
      expect(rows[0]!.status).toBe('sent')
    } finally {
      await server.close()
    }
  })
})

describe('jobs of a crashed process', () => {
  it('a running job with a fresh heartbeat is left to its worker; an old one is run again', async () => {
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8' })
    await pool.query(`update contract_exports set status = 'running' where id = $1`, [job.id])
    // Fresh: another process may be running it right now.
    await expect(runExport({ db: pool, dataDir }, shopRow, job.id)).rejects.toBeInstanceOf(ExportBusy)
    const res = await app.inject({ url: `${BASE}/${job.id}?${auth(shop)}` })
    expect(res.json().status).toBe('running')
    // Its worker died: the heartbeat is old, and the next try runs it from the start.
    await pool.query(
      `update contract_exports set heartbeat_at = now() - interval '5 minutes', done_rows = 3 where id = $1`,
      [job.id],
    )
    const ended = await runExport({ db: pool, dataDir }, shopRow, job.id)
    expect(ended.status).toBe('done')
    expect(ended.done_rows).toBe(5)
    expect((await download(job.id)).statusCode).toBe(200)
  })

  it('an ended job is never run twice, however often its queue job comes back', async () => {
    const job = await createExportJob(pool, shopRow, { encoding: 'utf-8', email: 'once@example.jp' })
    const first = await runExport({ db: pool, dataDir, mailer }, shopRow, job.id)
    const again = await runExport({ db: pool, dataDir, mailer }, shopRow, job.id)
    expect(again.finished_at).toEqual(first.finished_at)
    const { rows } = await pool.query(
      `select count(*)::int as n from mail_outbox where shop_id = $1 and to_address = 'once@example.jp'`,
      [shop.id],
    )
    expect(rows[0].n).toBe(1)
  })
})

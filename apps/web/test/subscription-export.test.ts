import type { ExportJob } from '@teiki/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, filenameFromContentDisposition } from '../src/app/api.ts'
import {
  checkExportForm,
  downloadExport,
  EMPTY_EXPORT_FORM,
  type ExportForm,
  POLL_INTERVAL_MS,
  progressLabel,
  progressPercent,
  runExportJob,
} from '../src/features/subscriptions/export/export-job.ts'

const form = (patch: Partial<ExportForm>): ExportForm => ({ ...EMPTY_EXPORT_FORM, ...patch })

describe('checkExportForm', () => {
  it('sends only the fields that are set, with numbers as numbers', () => {
    expect(checkExportForm(EMPTY_EXPORT_FORM)).toEqual({ ok: true, request: { encoding: 'utf-8' } })
    expect(
      checkExportForm(
        form({
          email: ' tantou@example.jp ',
          nextBillingDateStartDate: '2026-11-01',
          nextBillingDateEndDate: '2026-11-30',
          statuses: ['ACTIVE', 'PAUSED'],
          purchaseCountMin: '２', // full-width, as typed with a Japanese IME
          purchaseCountMax: '1,000',
          interval: 'MONTH',
          intervalCount: '1',
          encoding: 'shift_jis',
        }),
      ),
    ).toEqual({
      ok: true,
      request: {
        email: 'tantou@example.jp',
        nextBillingDateStartDate: '2026-11-01',
        nextBillingDateEndDate: '2026-11-30',
        statusFilter: ['ACTIVE', 'PAUSED'],
        purchaseCountMin: 2,
        purchaseCountMax: 1000,
        interval: 'MONTH',
        intervalCount: 1,
        encoding: 'shift_jis',
      },
    })
  })

  it.each([
    [{ email: 'tantou@' }, 'email', 'メールアドレスの形式が正しくありません'],
    [
      { createdDateStartDate: '2026-03-02', createdDateEndDate: '2026-03-01' },
      'createdDateEndDate',
      '作成日の開始日は終了日以前の日付を指定してください',
    ],
    [
      { nextBillingDateStartDate: '2026-12-02', nextBillingDateEndDate: '2026-12-01' },
      'nextBillingDateEndDate',
      '次回請求日の開始日は終了日以前の日付を指定してください',
    ],
    [
      { purchaseCountMin: '5', purchaseCountMax: '2' },
      'purchaseCountMax',
      '購入回数の最小は最大以下で指定してください',
    ],
    [{ purchaseCountMin: 'たくさん' }, 'purchaseCountMin', '購入回数の最小は数値で指定してください'],
    [{ purchaseCountMin: '1.5' }, 'purchaseCountMin', '購入回数の最小は整数で指定してください'],
    [{ intervalCount: '0' }, 'intervalCount', '請求間隔の数は1以上で指定してください'],
    // What the date field could not read as a day: a day that does not exist named (issue
    // 22), anything else told the screen's date format, not YYYY-MM-DD.
    [{ createdDateStartDate: '2026/13/01' }, 'createdDateStartDate', '2026年13月1日は存在しない日付です'],
    [
      { nextBillingDateEndDate: '来月' },
      'nextBillingDateEndDate',
      '日付は「2027年1月15日」のように入力してください',
    ],
  ])('%j: a Japanese message on the field', (patch, field, message) => {
    const checked = checkExportForm(form(patch))
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.errors).toEqual({ [field]: message })
  })
})

describe('progress', () => {
  it.each([
    [{ status: 'queued', doneRows: 0, totalRows: null }, '0 / … 件', 0],
    [{ status: 'running', doneRows: 2000, totalRows: 100000 }, '2,000 / 100,000 件', 2],
    [{ status: 'done', doneRows: 100000, totalRows: 100000 }, '100,000 / 100,000 件', 100],
    [{ status: 'done', doneRows: 0, totalRows: 0 }, '0 / 0 件', 100],
  ] as const)('%j', (job, label, percent) => {
    expect(progressLabel(job)).toBe(label)
    expect(progressPercent(job)).toBe(percent)
  })
})

const job = (patch: Partial<ExportJob>): ExportJob => ({
  id: '6f1c2c1e-3a7b-4c1d-9e2f-0a1b2c3d4e5f',
  status: 'queued',
  encoding: 'shift_jis',
  email: null,
  totalRows: null,
  doneRows: 0,
  byteSize: null,
  error: null,
  createdAt: '2026-11-22T04:05:00.000Z',
  finishedAt: null,
  fileName: 'subscriptions-20261122-1305.csv',
  downloadPath: null,
  ...patch,
})

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

describe('runExportJob and downloadExport (fetch mocked)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('posts the request, shows each progress state while polling every 500 ms, then downloads the file', async () => {
    const answers = [
      json(job({}), 202),
      json(job({ status: 'running', totalRows: 5000, doneRows: 0 })),
      json(job({ status: 'running', totalRows: 5000, doneRows: 2000 })),
      json(
        job({
          status: 'done',
          totalRows: 5000,
          doneRows: 5000,
          byteSize: 12,
          downloadPath:
            '/app-admin/export-subscription-contracts/6f1c2c1e-3a7b-4c1d-9e2f-0a1b2c3d4e5f/download',
        }),
      ),
    ]
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answers.shift()!)
    vi.stubGlobal('fetch', fetchMock)
    const sleeps: number[] = []
    const labels: string[] = []

    const done = await runExportJob(
      { encoding: 'shift_jis', statusFilter: ['ACTIVE'] },
      {
        onUpdate: (update) => labels.push(`${update.status} ${progressLabel(update)}`),
        sleep: async (ms) => {
          sleeps.push(ms)
        },
      },
    )

    expect(labels).toEqual([
      'queued 0 / … 件',
      'running 0 / 5,000 件',
      'running 2,000 / 5,000 件',
      'done 5,000 / 5,000 件',
    ])
    expect(sleeps).toEqual([POLL_INTERVAL_MS, POLL_INTERVAL_MS, POLL_INTERVAL_MS])
    expect(POLL_INTERVAL_MS).toBe(500)
    const [postUrl, postInit] = fetchMock.mock.calls[0]!
    expect(postUrl).toBe('/app-admin/export-subscription-contracts')
    expect(postInit?.method).toBe('POST')
    expect(JSON.parse(String(postInit?.body))).toEqual({ encoding: 'shift_jis', statusFilter: ['ACTIVE'] })
    expect(fetchMock.mock.calls[1]![0]).toBe(
      '/app-admin/export-subscription-contracts/6f1c2c1e-3a7b-4c1d-9e2f-0a1b2c3d4e5f',
    )

    const bytes = new Uint8Array([0x8e, 0x52, 0x93, 0x63]) // 山田 in Shift_JIS
    fetchMock.mockImplementationOnce(
      async () =>
        new Response(bytes, {
          headers: {
            'Content-Type': 'text/csv; charset=Shift_JIS',
            'Content-Disposition':
              'attachment; filename="subscriptions-20261122-1305.csv"; filename*=UTF-8\'\'subscriptions-20261122-1305.csv',
          },
        }),
    )
    const file = await downloadExport(done)
    expect(fetchMock.mock.calls.at(-1)![0]).toBe(
      '/app-admin/export-subscription-contracts/6f1c2c1e-3a7b-4c1d-9e2f-0a1b2c3d4e5f/download',
    )
    expect(file.filename).toBe('subscriptions-20261122-1305.csv')
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(bytes)
  })

  it('a refused request throws the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(
          {
            error: {
              code: 'INVALID_INPUT',
              message: '入力内容が正しくありません。email: メールアドレスの形式が正しくありません',
            },
          },
          400,
        ),
      ),
    )
    await expect(runExportJob({ email: 'x' }, { onUpdate: () => {}, sleep: async () => {} })).rejects.toThrow(
      '入力内容が正しくありません。email: メールアドレスの形式が正しくありません',
    )
  })

  it('a failed job throws its Japanese error', async () => {
    const answers = [json(job({}), 202), json(job({ status: 'failed', error: 'CSVの作成に失敗しました。' }))]
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()!),
    )
    const failure = runExportJob({}, { onUpdate: () => {}, sleep: async () => {} })
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toThrow('CSVの作成に失敗しました。')
  })

  it('a download refused while the job runs shows the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ error: { code: 'CONFLICT', message: 'エクスポートはまだ完了していません。' } }, 409),
      ),
    )
    await expect(downloadExport(job({}))).rejects.toThrow('エクスポートはまだ完了していません。')
  })
})

describe('filenameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="a.csv"; filename*=UTF-8\'\'%E5%AE%9A%E6%9C%9F.csv', '定期.csv'],
    ['attachment; filename="subscriptions-20261122-1305.csv"', 'subscriptions-20261122-1305.csv'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ['attachment; filename="fallback.csv"; filename*=UTF-8\'\'%E5%ZZ.csv', 'fallback.csv'],
    ['attachment', null],
    [null, null],
  ])('%s', (header, expected) => {
    expect(filenameFromContentDisposition(header)).toBe(expected)
  })
})

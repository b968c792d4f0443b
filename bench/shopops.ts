import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_MAIL_TEMPLATES, type MailValues, renderMailTemplate } from '@teiki/domain'
import type pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool, withTransaction } from '../apps/server/src/db/pool.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { startMailCatcher } from '../apps/server/src/mail/catcher.ts'
import { createMailer } from '../apps/server/src/mail/mailer.ts'
import { runLoad } from './load.ts'
import { BENCH_APP_PLAN } from './seed-mirror.ts'
import { startServer } from './server-process.ts'

// Issue 16 (`--only shopops`): the mail path and the shop-operation screens.
// - render: the payment-failure template rendered with a contract's values (text + escaped
//   HTML), in process: renders per second (target ≥ 10,000/s).
// - mail: 1,000 mails decided in one transaction into the outbox, then drained by two mailers at
//   once over SMTP into the local catcher (smtp-server + mailparser), as `npm start` sends:
//   mails per second and that each arrived once (target ≥ 50 mails/s, 0 duplicates).
// - api: GET /mail-template/payment_failure (preview from the shop's newest contract), GET
//   /settings and GET /plan on the server process against PostgreSQL: p50/p95 (target p95 ≤ 50 ms).

const SHOP = 'bench-shopops.myshopify.com'
const SECRET = 'bench-shopops-secret'

const values: MailValues = {
  customerName: { lastName: '山田', firstName: '花子' },
  shopName: 'ベンチ茶舗',
  contractId: '1234567',
  lines: Array.from({ length: 5 }, (_, i) => ({
    title: `煎茶 ${i + 1}`,
    variantTitle: '100g',
    quantity: 1 + i,
    unitPrice: { amount: '1980.0', currencyCode: 'JPY' },
  })),
  billingDate: new Date('2026-11-24T01:00:00Z'),
  failureReason: 'ご登録のお支払い方法で決済を完了できなかったため',
  retryDate: new Date('2026-11-28T01:00:00Z'),
  paymentAdvice: 'お支払い方法をご確認ください。',
}

function benchRender(log: (line: string) => void) {
  const t = DEFAULT_MAIL_TEMPLATES.payment_failure
  for (let i = 0; i < 2000; i++) renderMailTemplate('payment_failure', t, values, 'Asia/Tokyo')
  const n = 20_000
  const start = performance.now()
  for (let i = 0; i < n; i++) renderMailTemplate('payment_failure', t, values, 'Asia/Tokyo')
  const perSecond = Math.round(n / ((performance.now() - start) / 1000))
  log(`shopops render: ${perSecond.toLocaleString('en-US')} renders/s (≥ 10,000)`)
  return { renders: n, perSecond, target: 10_000 }
}

async function shopId(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into shops (domain, name, secret_hash, access_token, scopes, app_plan)
     values ($1, 'ベンチ茶舗', $2, 'shpat_bench', '{}', $3)
     on conflict (domain) do update set name = excluded.name returning id`,
    [SHOP, hashSecret(SECRET), JSON.stringify(BENCH_APP_PLAN)],
  )
  return rows[0]!.id
}

async function benchMail(db: pg.Pool, shop: string, log: (line: string) => void) {
  const catcher = await startMailCatcher({ keep: 5000 })
  const dir = await mkdtemp(join(tmpdir(), 'teiki-bench-mail-'))
  const mailers = [0, 1].map(() =>
    createMailer({ db, smtpUrl: catcher.smtpUrl, outboxDir: dir, from: 'Teiki <no-reply@teiki.bench>' }),
  )
  const n = 1000
  const run = Date.now().toString(36)
  try {
    const rendered = renderMailTemplate(
      'payment_failure',
      DEFAULT_MAIL_TEMPLATES.payment_failure,
      values,
      'Asia/Tokyo',
    )
    await withTransaction(db, async (tx) => {
      for (let i = 0; i < n; i++) {
        await mailers[0]!.enqueue(tx, {
          shopId: shop,
          to: `bench-${run}-${i}@example.jp`,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          dedupeKey: `bench:${run}:${i}`,
        })
      }
    })
    const start = performance.now()
    await Promise.all(mailers.map((m) => m.drain()))
    const seconds = (performance.now() - start) / 1000
    const arrived = catcher.list().filter((m) => m.envelopeTo[0]?.startsWith(`bench-${run}-`))
    const unique = new Set(arrived.map((m) => m.envelopeTo[0])).size
    const perSecond = Math.round(n / seconds)
    log(
      `shopops mail: ${n} mails over SMTP in ${seconds.toFixed(2)} s, ${perSecond} mails/s (≥ 50), arrived ${unique}, duplicates ${arrived.length - unique}`,
    )
    return {
      mails: n,
      seconds: Number(seconds.toFixed(2)),
      perSecond,
      arrived: unique,
      duplicates: arrived.length - unique,
      target: 50,
    }
  } finally {
    for (const m of mailers) m.close()
    await catcher.close()
    await rm(dir, { recursive: true, force: true })
  }
}

export async function benchShopOps(opts: {
  databaseUrl: string
  seconds: number
  log: (line: string) => void
}) {
  const { log } = opts
  const render = benchRender(log)
  const pool = createPool(opts.databaseUrl, 8)
  let mail: Awaited<ReturnType<typeof benchMail>>
  try {
    await migrate(pool)
    const shop = await shopId(pool)
    mail = await benchMail(pool, shop, log)
  } finally {
    await pool.end()
  }
  const server = await startServer({
    DATABASE_URL: opts.databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  })
  const api: Record<string, unknown> = {}
  try {
    const auth = `shop=${SHOP}&secret=${SECRET}`
    for (const path of [
      '/app-admin/mail-template/payment_failure',
      '/app-admin/settings',
      '/app-admin/plan',
    ]) {
      const check = await fetch(`http://127.0.0.1:${server.port}${path}?${auth}`)
      if (check.status !== 200) throw new Error(`${path} answered ${check.status}`)
      const r = await runLoad({
        port: server.port,
        connections: 8,
        seconds: opts.seconds,
        warmupSeconds: 1,
        nextPath: () => `${path}?${auth}`,
      })
      api[path] = r
      log(
        `shopops ${path.padEnd(40)} 8 conn: p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms (≤ 50)  ${r.rps} req/s  errors ${r.errors}`,
      )
    }
  } finally {
    await server.stop()
  }
  return { render, mail, api, targets: { rendersPerSecond: 10_000, mailsPerSecond: 50, apiP95Ms: 50 } }
}

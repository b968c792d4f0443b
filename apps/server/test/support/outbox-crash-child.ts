// A process that decides mails and is killed before (or while) sending them: run by
// test/mail-crash.test.ts as `node --import tsx` with DATABASE_URL, SHOP_ID, SMTP_URL, TAG and
// STAGE (`decided`: killed right after the deciding transaction commits; `claimed`: killed
// after its send claimed the rows, before anything reached the SMTP server).
import { createPool, setPreparedStatements, withTransaction } from '../../src/db/pool.ts'
import { createMailer } from '../../src/mail/mailer.ts'
import { claimDue } from '../../src/mail/outbox-repo.ts'

const env = process.env
setPreparedStatements(false)
const pool = createPool(env.DATABASE_URL!, 2)
const mailer = createMailer({
  db: pool,
  smtpUrl: env.SMTP_URL,
  outboxDir: '/nonexistent',
  from: 'Teiki <no-reply@teiki.test>',
})
const ids = await withTransaction(pool, async (tx) => {
  const made: string[] = []
  for (let i = 0; i < 5; i++) {
    const id = await mailer.enqueue(tx, {
      shopId: env.SHOP_ID!,
      to: `${env.TAG}-${i}@example.jp`,
      subject: `お支払いを確認できませんでした（${i + 1}）`,
      text: `${i + 1}通目`,
      dedupeKey: `${env.TAG}:${i}`,
    })
    made.push(id!)
  }
  return made
})
if (env.STAGE === 'claimed') await claimDue(pool, { ids, limit: ids.length })
process.stdout.write(`${JSON.stringify(ids)}\n`)
process.kill(process.pid, 'SIGKILL')

import { ZErrorResponse, ZMyPageActionResponse } from '@teiki/contract'
import { addCalendarDays, toZonedDate } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { formToken } from '../src/features/my-page/form-token.ts'
import { resumeDuePauses } from '../src/features/my-page/resume-sweep.ts'
import { createContractActions } from '../src/features/subscriptions/actions-service.ts'
import { appProxySignature } from '../src/http/app-proxy.ts'
import { toGid } from '../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../src/platform/operations/subscription-contract.ts'
import { setContractNextBillingDate } from '../src/platform/operations/subscription-contract-next-billing-date.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { appendContractEvents, upsertContracts } from '../src/sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../src/sync/records.ts'
import { useMainAndOther } from './support/emulated-app.ts'
import { TEST_API_SECRET } from './support/fixtures.ts'

// マイページ's changes (issue 26) against the emulated platform: each goes through the contract
// services the merchant's screens use, with the customer bound; the rules (the merchant's
// switches, the change lock, the plan's minimum cycles) refuse in Japanese with nothing changed;
// another customer's or another shop's contract is 404; a request the platform did not sign is 401.

const SECRET = 's3cret-my-page'
const env = useMainAndOther('my-page-actions', { secret: SECRET, contracts: [30, 5], sync: false })
const ZONE = 'Asia/Tokyo'
const today = () => toZonedDate(new Date(), ZONE)

function proxied(domain: string, customerId: string, secret = TEST_API_SECRET) {
  const query = {
    shop: domain,
    logged_in_customer_id: customerId,
    path_prefix: '/apps/teiki',
    timestamp: String(Math.floor(Date.now() / 1000)),
  }
  return new URLSearchParams({ ...query, signature: appProxySignature(query, secret) })
}

function act(domain: string, customerId: string, contractId: string, action: string, body: unknown = {}) {
  return env.app.inject({
    method: 'POST',
    url: `/proxy/api/subscriptions/${contractId}/${action}?${proxied(domain, customerId)}`,
    payload: body as Record<string, unknown>,
  })
}

const used = new Set<number>()
/** An ACTIVE contract no test used, its next billing `inDays` days from today, mirrored. */
async function fresh(inDays = 20, domain = env.main) {
  const c = env.emulator.store.shop(domain)!.contracts.find((c) => c.status === 'ACTIVE' && !used.has(c.id))!
  used.add(c.id)
  const gid = toGid('SubscriptionContract', c.id)
  const at = new Date(`${addCalendarDays(today(), inDays)}T01:00:00Z`)
  await setContractNextBillingDate(env.clients[domain]!, gid, at)
  const contract = (await fetchSubscriptionContract(env.clients[domain]!, gid))!
  const changes = await upsertContracts(
    env.pool,
    env.shopIds[domain]!,
    [contractRecord(contract)],
    lineRecords(contract),
  )
  await appendContractEvents(env.pool, env.shopIds[domain]!, 'sync', changes)
  return { contractId: String(c.id), customerId: String(c.customerId), gid, at }
}

const platformOf = (domain: string, id: string) =>
  env.emulator.store.shop(domain)!.contracts.find((c) => c.id === Number(id))!

async function events(contractId: string) {
  const { rows } = await env.pool.query<{ type: string; payload: Record<string, unknown> }>(
    'select type, payload from contract_events where shop_id = $1 and contract_id = $2 and source = $3 order by id',
    [env.shopIds[env.main], contractId, 'app'],
  )
  return rows
}

const mutations = (from: number) =>
  env.emulator.callLog
    .slice(from)
    .filter((c) => c.rootFields.some((f) => /Draft|Set|Pause|Cancel|Activate/.test(f))).length

async function settings(over: Record<string, unknown>) {
  const res = await env.app.inject({
    method: 'PUT',
    url: `/app-admin/my-page-settings?shop=${env.main}&secret=${SECRET}`,
    payload: {
      actions: {
        skip: true,
        pause: true,
        resume: true,
        date: true,
        quantity: true,
        swap: true,
        address: true,
        slot: true,
        cardMail: true,
        cancel: true,
      },
      lockDays: 3,
      ...over,
    },
  })
  expect(res.statusCode, res.body).toBe(200)
}

describe('マイページ: the subscriber’s changes through the app proxy', () => {
  it('skips the next delivery: one cycle later on the platform, お客様 in the history, the page’s answer in Japanese', async () => {
    const c = await fresh(20)
    const res = await act(env.main, c.customerId, c.contractId, 'skip')
    expect(res.statusCode, res.body).toBe(200)
    const answer = ZMyPageActionResponse.parse(res.json())
    expect(answer.message).toMatch(
      /^次回のお届けをスキップしました。次回のご注文日は\d{4}年\d{1,2}月\d{1,2}日です。$/,
    )
    const after = new Date(platformOf(env.main, c.contractId).nextBillingDate!)
    expect(after.getTime()).toBeGreaterThan(c.at.getTime() + 6 * 86_400_000)
    expect(answer.contract.nextBillingDate).toBe(toZonedDate(after, ZONE))
    const skipped = (await events(c.contractId)).find((e) => e.type === 'next_order_skipped')
    expect(skipped?.payload).toMatchObject({ actor: 'customer', cycles: 1, to: after.toISOString() })
  })

  it('mails the subscriber ご契約内容を変更しました with what changed, once per change', async () => {
    const c = await fresh(20)
    const email = `mypage-${c.customerId}@example.jp`
    await env.pool.query(
      `insert into customers (shop_id, id, first_name, last_name, display_name, email)
       values ($1, $2, '花子', '山田', '山田 花子', $3) on conflict (shop_id, id) do update set email = excluded.email`,
      [env.shopIds[env.main], c.customerId, email],
    )
    const res = await act(env.main, c.customerId, c.contractId, 'quantity', {
      lineId: ZMyPageActionResponse.parse((await act(env.main, c.customerId, c.contractId, 'skip')).json())
        .contract.lines[0]!.lineId,
      quantity: 3,
    })
    expect(res.statusCode, res.body).toBe(200)
    const { rows } = await env.pool.query<{ subject: string; body_text: string }>(
      `select subject, body as body_text from mail_outbox where shop_id = $1 and to_address = $2 order by id`,
      [env.shopIds[env.main], email],
    )
    expect(rows.map((r) => r.subject)).toEqual(['ご契約内容を変更しました', 'ご契約内容を変更しました'])
    expect(rows[0]!.body_text).toMatch(
      /山田 花子 様[\s\S]*次回のお届けをスキップしました。次回のご注文日は\d{4}年/,
    )
    expect(rows[1]!.body_text).toContain('数量を3に変更しました。')
  })

  it('another customer’s contract, and the same customer id in another shop, are not found: nothing asked of the platform', async () => {
    const mine = await fresh(20)
    const theirs = await fresh(20)
    const elsewhere = await fresh(20, env.other)
    const from = env.emulator.callLog.length
    const res = await act(env.main, mine.customerId, theirs.contractId, 'skip')
    expect(res.statusCode).toBe(404)
    expect(ZErrorResponse.parse(res.json()).error.message).toBe('定期便が見つかりません')
    const cross = await act(env.main, elsewhere.customerId, elsewhere.contractId, 'cancel', { reasonId: '1' })
    expect(cross.statusCode).toBe(404)
    expect(mutations(from)).toBe(0)
    expect(new Date(platformOf(env.main, theirs.contractId).nextBillingDate!).getTime()).toBe(
      theirs.at.getTime(),
    )
  })

  it('a request the platform did not sign, or signed for someone else, is 401', async () => {
    const c = await fresh(20)
    const forged = proxied(env.main, c.customerId, 'not-the-secret')
    const res = await env.app.inject({
      method: 'POST',
      url: `/proxy/api/subscriptions/${c.contractId}/skip?${forged}`,
      payload: {},
    })
    expect(res.statusCode).toBe(401)
    const changed = proxied(env.main, '1')
    changed.set('logged_in_customer_id', c.customerId)
    const res2 = await env.app.inject({
      method: 'POST',
      url: `/proxy/api/subscriptions/${c.contractId}/skip?${changed}`,
      payload: {},
    })
    expect(res2.statusCode).toBe(401)
    const nobody = await act(env.main, '', c.contractId, 'skip')
    expect(nobody.statusCode).toBe(401)
  })

  it('refuses in Japanese, changing nothing: a change the merchant switched off, the change lock, the plan’s minimum cycles', async () => {
    const c = await fresh(20)
    const soon = await fresh(2)
    const from = env.emulator.callLog.length
    await settings({
      actions: {
        skip: false,
        pause: true,
        resume: true,
        date: true,
        quantity: true,
        swap: true,
        address: true,
        slot: true,
        cardMail: true,
        cancel: true,
      },
    })
    const off = await act(env.main, c.customerId, c.contractId, 'skip')
    expect(off.statusCode).toBe(409)
    expect(off.json().error.message).toBe(
      'このストアではマイページから「次回のお届けのスキップ」はできません。ストアにお問い合わせください。',
    )
    await settings({})

    const locked = await act(env.main, soon.customerId, soon.contractId, 'pause', { cycles: 1 })
    expect(locked.statusCode).toBe(409)
    expect(locked.json().error.message).toMatch(
      /^次回のご注文の準備中のため、「お休み（一時停止）」はできません（変更の受付は/,
    )

    await env.pool.query(
      `update subscription_contracts set billing_policy = billing_policy || '{"minCycles": 99}' where shop_id = $1 and id = $2`,
      [env.shopIds[env.main], c.contractId],
    )
    const min = await act(env.main, c.customerId, c.contractId, 'cancel', { reasonId: '1' })
    expect(min.statusCode).toBe(409)
    expect(min.json().error.message).toMatch(
      /^この定期便は最低99回のご購入が条件のため、あと\d+回のお届けまで解約できません。/,
    )
    const bad = await act(env.main, c.customerId, c.contractId, 'pause', { cycles: 4 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toBe('お休みする回数は1〜3回で指定してください')
    expect(mutations(from)).toBe(0)
    expect(platformOf(env.main, c.contractId).status).toBe('ACTIVE')
    expect(platformOf(env.main, soon.contractId).status).toBe('ACTIVE')
  })

  it('pauses for 2 cycles: PAUSED until the day before the billing two cycles on, then resumed by the sweep', async () => {
    const c = await fresh(20)
    const res = await act(env.main, c.customerId, c.contractId, 'pause', { cycles: 2 })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().message).toMatch(
      /^2回分お休みします。\d{4}年\d{1,2}月\d{1,2}日のご注文から再開します。$/,
    )
    const platform = platformOf(env.main, c.contractId)
    expect(platform.status).toBe('PAUSED')
    const next = new Date(platform.nextBillingDate!)
    const { rows } = await env.pool.query<{ resume_at: Date }>(
      'select resume_at from contract_pauses where shop_id = $1 and contract_id = $2',
      [env.shopIds[env.main], c.contractId],
    )
    expect(rows[0]!.resume_at.getTime()).toBe(next.getTime() - 86_400_000)
    const actions = createContractActions({
      db: env.pool,
      adminOrigin: () => env.url,
      clients: env.app.shopClients,
    })
    expect(
      await resumeDuePauses({ db: env.pool, actions }, new Date(next.getTime() - 2 * 86_400_000)),
    ).toEqual({ resumed: 0, ended: 0 })
    const swept = await resumeDuePauses({ db: env.pool, actions }, new Date(next.getTime() - 86_400_000 + 1))
    expect(swept.resumed).toBeGreaterThanOrEqual(1)
    expect(platformOf(env.main, c.contractId).status).toBe('ACTIVE')
    expect(new Date(platformOf(env.main, c.contractId).nextBillingDate!).getTime()).toBe(next.getTime())
    const status = (await events(c.contractId)).filter((e) => e.type === 'status_changed')
    expect(status.map((e) => [e.payload.to, e.payload.actor ?? null])).toEqual([
      ['PAUSED', 'customer'],
      ['ACTIVE', null],
    ])
  })

  it('cancels with one of the shop’s reasons: CANCELLED, the reason recorded for 解約理由, お客様 in the history', async () => {
    const c = await fresh(20)
    const reason = await env.app.inject({
      method: 'POST',
      url: `/app-admin/cancellation-reasons?shop=${env.main}&secret=${SECRET}`,
      payload: { reason: '価格が高い' },
    })
    expect(reason.statusCode, reason.body).toBeLessThan(300)
    const reasonId = String(reason.json().id)
    const res = await act(env.main, c.customerId, c.contractId, 'cancel', { reasonId })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().contract.statusLabel).toBe('解約済み')
    expect(platformOf(env.main, c.contractId).status).toBe('CANCELLED')
    const cancelled = (await events(c.contractId)).find((e) => e.payload.to === 'CANCELLED')
    expect(cancelled?.payload).toMatchObject({ actor: 'customer', reason: '価格が高い', reasonId })
    const { rows } = await env.pool.query(
      'select 1 from contract_cancellations where shop_id = $1 and contract_id = $2',
      [env.shopIds[env.main], c.contractId],
    )
    expect(rows).toHaveLength(1)
  })

  it('the page’s forms: a post without the customer’s form token changes nothing; with it, the page says what was done', async () => {
    const c = await fresh(20)
    const url = `/proxy/my-page/${c.contractId}/slot?${proxied(env.main, c.customerId)}`
    const headers = { 'content-type': 'application/x-www-form-urlencoded' }
    const forged = await env.app.inject({
      method: 'POST',
      url,
      headers,
      payload: 'deliveryTime=19-21&token=x',
    })
    expect(forged.statusCode).toBe(200)
    expect(forged.body).toContain('ページの有効期限が切れました')
    const shop = (await findInstalledShop(env.pool, env.main))!
    const token = formToken(shop, c.customerId)
    const ok = await env.app.inject({
      method: 'POST',
      url,
      headers,
      payload: new URLSearchParams({ deliveryTime: '19-21', token }).toString(),
    })
    expect(ok.headers['content-type']).toContain('application/liquid')
    expect(ok.body).toContain('配送時間帯を「19時〜21時」に変更しました。')
    expect(ok.body).toContain('19時〜21時')
    const changed = (await events(c.contractId)).find((e) => e.type === 'delivery_time_changed')
    expect(changed?.payload).toMatchObject({ actor: 'customer' })
  })

  it('a cancellation is a conversation: the reason’s offer shown once; accepted it is applied and kept, declined the contract is cancelled; 解約理由 counts both', async () => {
    const reason = await env.app.inject({
      method: 'POST',
      url: `/app-admin/cancellation-reasons?shop=${env.main}&secret=${SECRET}`,
      payload: { reason: '価格が高い（オファー）' },
    })
    const reasonId = String(reason.json().id)
    const bad = await env.app.inject({
      method: 'PUT',
      url: `/app-admin/retention-offers/${reasonId}?shop=${env.main}&secret=${SECRET}`,
      payload: { offer: { kind: 'percent', percent: 120, orders: 1 } },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toBe('割引率は1〜100%の整数で指定してください')
    const set = await env.app.inject({
      method: 'PUT',
      url: `/app-admin/retention-offers/${reasonId}?shop=${env.main}&secret=${SECRET}`,
      payload: { offer: { kind: 'percent', percent: 10, orders: 1 } },
    })
    expect(set.statusCode, set.body).toBe(200)

    // First subscriber: asked, offered 次回10%オフ, nothing changed yet; accepts.
    const kept = await fresh(20)
    const from = env.emulator.callLog.length
    const asked = await act(env.main, kept.customerId, kept.contractId, 'cancel', { reasonId })
    expect(asked.statusCode, asked.body).toBe(200)
    expect(ZMyPageActionResponse.parse(asked.json()).offer).toEqual({ label: '次回10%オフ', kind: 'percent' })
    expect(mutations(from)).toBe(0)
    const again = await act(env.main, kept.customerId, kept.contractId, 'cancel', { reasonId })
    expect(again.json().offer?.label).toBe('次回10%オフ')
    const accepted = await act(env.main, kept.customerId, kept.contractId, 'cancel', {
      reasonId,
      decision: 'accept',
    })
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json().message).toBe('「次回10%オフ」を適用しました。定期便はこのまま続きます。')
    const platform = platformOf(env.main, kept.contractId)
    expect(platform.status).toBe('ACTIVE')
    expect(platform.discounts).toEqual([
      expect.objectContaining({
        title: '解約防止オファー: 次回10%オフ',
        value: { percentage: 10 },
        recurringCycleLimit: 1,
      }),
    ])
    // Shown once: asked again later, the contract is cancelled without another offer.
    const later = await act(env.main, kept.customerId, kept.contractId, 'cancel', { reasonId })
    expect(later.json().offer).toBeUndefined()
    expect(platformOf(env.main, kept.contractId).status).toBe('CANCELLED')

    // Second subscriber declines: cancelled with the reason.
    const gone = await fresh(20)
    await act(env.main, gone.customerId, gone.contractId, 'cancel', { reasonId })
    const declined = await act(env.main, gone.customerId, gone.contractId, 'cancel', {
      reasonId,
      decision: 'decline',
    })
    expect(declined.statusCode, declined.body).toBe(200)
    expect(platformOf(env.main, gone.contractId).status).toBe('CANCELLED')

    const stats = await env.app.inject({
      method: 'GET',
      url: `/app-admin/retention-offers?shop=${env.main}&secret=${SECRET}`,
    })
    const row = stats.json().reasons.find((r: { reasonId: string }) => r.reasonId === reasonId)
    expect(row).toMatchObject({ offerLabel: '次回10%オフ', asked: 3, offered: 2, kept: 1 })
    expect(row.revenueKept).toBeGreaterThan(0)
  })
})

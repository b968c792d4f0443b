import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { adminCall } from './support/client.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

describe('customer, billing, online store and bulk mutations', () => {
  let emulator: Emulator
  let url: string
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    // The theme-file upserts below are an exempt app's (platform-limits.test.ts: the default refusal).
    emulator = await smallEmulator({ themeFilesExemption: true })
    url = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  it('adds and removes customer tags (comma lists split), and rejects unknown ids', async () => {
    const c = shop().customers[0]!
    const id = toGid('Customer', c.id)
    const added = await gql(emulator, m.tagsAdd, { id, tags: ['VIP', '休眠, 要フォロー'] })
    expect(added.tagsAdd.node.tags).toEqual(expect.arrayContaining(['VIP', '休眠', '要フォロー']))
    const removed = await gql(emulator, m.tagsRemove, { id, tags: ['休眠'] })
    expect(removed.tagsRemove.node.tags).not.toContain('休眠')
    const unknown = await gql(emulator, m.tagsAdd, { id: toGid('Customer', 1), tags: ['x'] })
    expect(unknown.tagsAdd).toMatchObject({ node: null, userErrors: [{ field: ['id'] }] })
  })

  it('records a payment-method update e-mail and returns the customer', async () => {
    const pm = shop().paymentMethods.find((p) => p.revokedAt === null)!
    const data = await gql(emulator, m.paymentMethodSendUpdateEmail, {
      id: toGid('CustomerPaymentMethod', pm.id),
    })
    expect(data.customerPaymentMethodSendUpdateEmail.customer.id).toBe(toGid('Customer', pm.customerId))
    expect(shop().extra!.sentEmails.at(-1)).toMatchObject({
      paymentMethodId: pm.id,
      customerId: pm.customerId,
    })
    const bad = await gql(emulator, m.paymentMethodSendUpdateEmail, { id: toGid('CustomerPaymentMethod', 1) })
    expect(bad.customerPaymentMethodSendUpdateEmail.userErrors).toHaveLength(1)
  })

  it('creates a pending app subscription whose confirmation URL activates it', async () => {
    const data = await gql(emulator, m.appSubscriptionCreate, {
      name: 'プロプラン',
      returnUrl: 'https://app.example/billing/return',
      test: true,
      lineItems: [
        {
          plan: {
            appRecurringPricingDetails: {
              price: { amount: '9800', currencyCode: 'JPY' },
              interval: 'EVERY_30_DAYS',
            },
          },
        },
      ],
    })
    const { appSubscription, confirmationUrl } = data.appSubscriptionCreate
    expect(appSubscription).toMatchObject({ name: 'プロプラン', status: 'PENDING', test: true })
    expect(confirmationUrl.startsWith(url)).toBe(true)
    const shown = await fetch(confirmationUrl)
    expect(await shown.text()).toContain('承認する')
    const res = await fetch(confirmationUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(
      `https://app.example/billing/return?charge_id=${appSubscription.id.split('/').pop()}`,
    )
    const { body } = await adminCall(
      url,
      emulator.install(SHOP).accessToken,
      '{ currentAppInstallation { activeSubscriptions { id name status } } }',
    )
    expect(body.data.currentAppInstallation.activeSubscriptions).toEqual([
      { id: appSubscription.id, name: 'プロプラン', status: 'ACTIVE' },
    ])
    const blank = await gql(emulator, m.appSubscriptionCreate, {
      name: '',
      returnUrl: 'https://x',
      lineItems: [],
    })
    expect(blank.appSubscriptionCreate.userErrors).toHaveLength(1)
  })

  it('lists and deletes the app’s script tags', async () => {
    expect((await gql(emulator, m.scriptTags)).scriptTags.nodes).toEqual([])
    await gql(emulator, m.scriptTagCreate, { input: { src: 'https://cdn.example.jp/widget.js' } })
    const tags = (await gql(emulator, m.scriptTags)).scriptTags.nodes
    expect(tags).toHaveLength(1)
    const deleted = await gql(emulator, m.scriptTagDelete, { id: tags[0].id })
    expect(deleted.scriptTagDelete.deletedScriptTagId).toBe(tags[0].id)
    expect((await gql(emulator, m.scriptTags)).scriptTags.nodes).toEqual([])
    expect(
      (await gql(emulator, m.scriptTagDelete, { id: tags[0].id })).scriptTagDelete.userErrors,
    ).toHaveLength(1)
  })

  it('reads theme files and upserts new ones', async () => {
    const main = (await gql(emulator, m.themes, { roles: ['MAIN'] })).themes.nodes
    expect(main).toEqual([{ id: expect.stringMatching(/OnlineStoreTheme/), name: 'Dawn', role: 'MAIN' }])
    const themeId = main[0].id
    const read = await gql(emulator, m.themeFiles, {
      id: themeId,
      filenames: ['templates/product.json', 'sections/missing.liquid'],
    })
    expect(read.theme.files.nodes[0]).toMatchObject({
      filename: 'templates/product.json',
      contentType: 'application/json',
    })
    expect(read.theme.files.userErrors).toEqual([{ code: 'NOT_FOUND', filename: 'sections/missing.liquid' }])

    const block = '{% schema %}{"name":"定期便"}{% endschema %}'
    const up = await gql(emulator, m.themeFilesUpsert, {
      themeId,
      files: [
        { filename: 'snippets/teiki.liquid', body: { type: 'TEXT', value: block } },
        {
          filename: 'config/teiki.json',
          body: { type: 'BASE64', value: Buffer.from('{"on":true}').toString('base64') },
        },
      ],
    })
    expect(up.themeFilesUpsert.upsertedThemeFiles).toEqual([
      { filename: 'snippets/teiki.liquid', size: String(Buffer.byteLength(block)) },
      { filename: 'config/teiki.json', size: '11' },
    ])
    const glob = await gql(emulator, m.themeFiles, { id: themeId, filenames: ['snippets/*'] })
    expect(glob.theme.files.nodes.map((f: { body: { content: string } }) => f.body.content)).toEqual([block])
    const bad = await gql(emulator, m.themeFilesUpsert, {
      themeId,
      files: [{ filename: 'config/x.json', body: { type: 'TEXT', value: '{' } }],
    })
    expect(bad.themeFilesUpsert.userErrors[0]).toMatchObject({
      code: 'FILE_VALIDATION_ERROR',
      filename: 'config/x.json',
    })
  })

  it('runs the contract export as a bulk query: RUNNING, then COMPLETED with a JSONL file', async () => {
    const run = await gql(emulator, m.bulkOperationRunQuery, { query: m.contractExportBulkQuery })
    expect(run.bulkOperationRunQuery.userErrors).toEqual([])
    const op = run.bulkOperationRunQuery.bulkOperation
    expect(['CREATED', 'RUNNING']).toContain(op.status)
    const busy = await gql(emulator, m.bulkOperationRunQuery, { query: m.contractExportBulkQuery })
    expect(busy.bulkOperationRunQuery.userErrors[0].code).toBe('OPERATION_IN_PROGRESS')
    await emulator.idle()
    const current = (await gql(emulator, m.currentBulkOperation)).currentBulkOperation
    const node = (await gql(emulator, m.bulkOperationNode, { id: op.id })).node
    expect(node).toEqual(current)
    const contracts = shop().contracts
    const lineCount = contracts.reduce((n, c) => n + c.lines.length, 0)
    expect(current).toMatchObject({
      id: op.id,
      status: 'COMPLETED',
      type: 'QUERY',
      rootObjectCount: String(contracts.length),
      objectCount: String(contracts.length + lineCount),
    })

    const res = await fetch(current.url)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(String(Buffer.byteLength(text))).toBe(current.fileSize)
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const first = contracts[0]!
    expect(rows[0]).toMatchObject({
      id: toGid('SubscriptionContract', first.id),
      status: first.status,
      customer: { id: toGid('Customer', first.customerId) },
    })
    expect(rows[0].lines).toBeUndefined()
    expect(rows[1]).toMatchObject({
      id: toGid('SubscriptionLine', first.lines[0]!.id),
      __parentId: toGid('SubscriptionContract', first.id),
    })

    const invalid = await gql(emulator, m.bulkOperationRunQuery, { query: '{ nonsense }' })
    expect(invalid.bulkOperationRunQuery.userErrors[0]).toMatchObject({ code: 'INVALID', field: ['query'] })
  })
})

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { loadPixelExtension } from '../src/web-pixel-extension.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

const good = {
  accountID: 'k'.repeat(24),
  ingestUrl: `https://teiki.example.com/pixel/events?shop=${SHOP}`,
  conversionTags: '[]',
}

describe('the deployed pixel extension (extensions/teiki-pixel)', () => {
  it('is read from the repository toml: its fields with their length rules', () => {
    const ext = loadPixelExtension()
    expect(ext.handle).toBe('teiki-pixel')
    expect(ext.definitionProblem).toBeNull()
    expect(ext.fields).toEqual([
      expect.objectContaining({ key: 'accountID', type: 'single_line_text_field', min: 16, max: 64 }),
      expect.objectContaining({ key: 'ingestUrl', type: 'single_line_text_field', min: 12, max: 512 }),
      expect.objectContaining({ key: 'conversionTags', type: 'single_line_text_field', min: 2, max: 25000 }),
    ])
  })
})

describe('webPixelCreate / webPixelUpdate / webPixelDelete / webPixel', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const grant = shop

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())
  afterEach(() => {
    shop().extra!.webPixel = null
  })

  it('answers "No web pixel was found for this app." before one is created', async () => {
    const res = await emulator.graphql(SHOP, { query: m.webPixelQuery })
    expect(res.data).toEqual({ webPixel: null })
    expect(res.errors?.[0]?.message).toBe('No web pixel was found for this app.')
  })

  it('creates the one pixel with valid settings, answered as a JSON string; a second create is TAKEN', async () => {
    const created = (await gql(emulator, m.webPixelCreate, { webPixel: { settings: good } })).webPixelCreate
    expect(created.userErrors).toEqual([])
    expect(created.webPixel.id).toMatch(/^gid:\/\/shopify\/WebPixel\/\d+$/)
    expect(JSON.parse(created.webPixel.settings)).toEqual(good)
    const read = (await gql(emulator, m.webPixelQuery)).webPixel
    expect(read).toEqual(created.webPixel)

    // The settings as a JSON string are taken too; a second pixel for the app is not.
    const again = (await gql(emulator, m.webPixelCreate, { webPixel: { settings: JSON.stringify(good) } }))
      .webPixelCreate
    expect(again).toEqual({
      webPixel: null,
      userErrors: [{ code: 'TAKEN', field: ['webPixel'], message: expect.any(String) }],
    })
    expect(shop().extra!.webPixel!.id).toBe(Number(created.webPixel.id.split('/').pop()))
  })

  it.each([
    ['a key the definition does not have', { ...good, debug: 'true' }, 'INVALID_SETTINGS'],
    ['a missing field', { accountID: good.accountID }, 'INVALID_SETTINGS'],
    ['a value under the min length', { ...good, accountID: 'short' }, 'INVALID_SETTINGS'],
    [
      'a value over the max length',
      { ...good, ingestUrl: `https://x.jp/${'a'.repeat(600)}` },
      'INVALID_SETTINGS',
    ],
    ['a number for a text field', { ...good, accountID: 1234567890123456 }, 'INVALID_SETTINGS'],
    ['two lines in a single-line field', { ...good, accountID: `${'k'.repeat(20)}\nx` }, 'INVALID_SETTINGS'],
    ['a string that is not JSON', '{accountID:', 'INVALID_CONFIGURATION_JSON'],
    ['a JSON array', '[1,2]', 'INVALID_CONFIGURATION_JSON'],
  ])('refuses %s, and writes nothing', async (_name, settings, code) => {
    const res = (await gql(emulator, m.webPixelCreate, { webPixel: { settings } })).webPixelCreate
    expect(res).toMatchObject({ webPixel: null, userErrors: [{ code, field: ['webPixel', 'settings'] }] })
    expect(shop().extra!.webPixel ?? null).toBeNull()
  })

  it('updates the pixel by id (settings validated again), refuses an unknown id, and deletes it', async () => {
    const { id } = (await gql(emulator, m.webPixelCreate, { webPixel: { settings: good } })).webPixelCreate
      .webPixel
    const moved = { ...good, ingestUrl: `https://new.example.com/pixel/events?shop=${SHOP}` }
    const updated = (await gql(emulator, m.webPixelUpdate, { id, webPixel: { settings: moved } }))
      .webPixelUpdate
    expect(updated.userErrors).toEqual([])
    expect(JSON.parse(updated.webPixel.settings)).toEqual(moved)
    const bad = (
      await gql(emulator, m.webPixelUpdate, { id, webPixel: { settings: { ...moved, accountID: 'x' } } })
    ).webPixelUpdate
    expect(bad.userErrors[0].code).toBe('INVALID_SETTINGS')
    expect(shop().extra!.webPixel!.settings).toEqual(moved)
    const unknown = (
      await gql(emulator, m.webPixelUpdate, { id: 'gid://shopify/WebPixel/1', webPixel: { settings: good } })
    ).webPixelUpdate
    expect(unknown.userErrors).toMatchObject([{ code: 'NOT_FOUND', field: ['id'] }])

    const deleted = (await gql(emulator, m.webPixelDelete, { id })).webPixelDelete
    expect(deleted).toEqual({ deletedWebPixelId: id, userErrors: [] })
    expect((await gql(emulator, m.webPixelDelete, { id })).webPixelDelete.userErrors[0].code).toBe(
      'NOT_FOUND',
    )
  })

  it('denies access without write_pixels / read_customer_events, as the platform answers it', async () => {
    const saved = [...grant().installation.scopes]
    try {
      grant().installation.scopes = saved.filter((s) => s !== 'read_customer_events')
      const res = await emulator.graphql(SHOP, {
        query: m.webPixelCreate,
        variables: { webPixel: { settings: good } },
      })
      expect(res.data).toEqual({ webPixelCreate: null })
      expect(res.errors?.[0]).toMatchObject({
        message: expect.stringMatching(
          /^Access denied for webPixelCreate field\. Required access: `write_pixels`.*read_customer_events/,
        ),
        extensions: { code: 'ACCESS_DENIED' },
      })
      grant().installation.scopes = saved.filter((s) => s !== 'write_pixels')
      const read = await emulator.graphql(SHOP, { query: m.webPixelQuery })
      expect(read.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED')
      expect(shop().extra!.webPixel ?? null).toBeNull()
    } finally {
      grant().installation.scopes = saved
    }
  })

  it('is removed with the app: after an uninstall and a reinstall the shop has none', async () => {
    await gql(emulator, m.webPixelCreate, { webPixel: { settings: good } })
    emulator.uninstall(SHOP)
    emulator.install(SHOP)
    const res = await emulator.graphql(SHOP, { query: m.webPixelQuery })
    expect(res.errors?.[0]?.message).toBe('No web pixel was found for this app.')
  })

  it('costs like any mutation (10) and a read of one object (1)', async () => {
    const before = emulator.callLog.length
    await gql(emulator, m.webPixelCreate, { webPixel: { settings: good } })
    await gql(emulator, m.webPixelQuery)
    expect(
      emulator.callLog.slice(before).map((c) => [c.rootFields[0], c.requestedCost, c.actualCost]),
    ).toEqual([
      ['webPixelCreate', 10, 10],
      ['webPixel', 1, 1],
    ])
  })
})

describe('an app whose pixel extension is missing or broken', () => {
  it('answers NO_EXTENSION when the app deployed none', async () => {
    const emulator = await smallEmulator({ pixelExtensionDir: null })
    try {
      const res = (await gql(emulator, m.webPixelCreate, { webPixel: { settings: good } })).webPixelCreate
      expect(res.userErrors).toMatchObject([{ code: 'NO_EXTENSION' }])
    } finally {
      await emulator.close()
    }
  })

  it('answers INVALID_SETTINGS_DEFINITION for a definition the platform cannot use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pixel-ext-'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, 'shopify.extension.toml'),
      'name = "broken"\ntype = "web_pixel_extension"\n\n[settings]\ntype = "object"\n\n[settings.fields.colour]\nname = "Colour"\ntype = "color"\n',
    )
    const emulator = await smallEmulator({ pixelExtensionDir: dir })
    try {
      const res = (await gql(emulator, m.webPixelCreate, { webPixel: { settings: { colour: '#fff' } } }))
        .webPixelCreate
      expect(res.userErrors).toMatchObject([{ code: 'INVALID_SETTINGS_DEFINITION' }])
    } finally {
      await emulator.close()
    }
  })
})

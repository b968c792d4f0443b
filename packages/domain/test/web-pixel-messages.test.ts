import { readFileSync } from 'node:fs'
import { type EnumTypeDefinitionNode, Kind, parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import { UNKNOWN_WEB_PIXEL_ERROR_JA, WEB_PIXEL_ERRORS_JA, webPixelErrorsJa } from '../src/index.ts'

// The real schema's ErrorsWebPixelUserErrorCode (read from the shared folder, as
// platform-messages.test.ts does): a code the platform adds fails here until it has Japanese.
const SDL = readFileSync(
  process.env.SHOPIFY_ADMIN_SCHEMA ??
    new URL('../../../../shared/shopify-admin-schema/shopify-2025-04.graphql', import.meta.url),
  'utf8',
)
const codes =
  parse(SDL, { noLocation: true })
    .definitions.filter((d): d is EnumTypeDefinitionNode => d.kind === Kind.ENUM_TYPE_DEFINITION)
    .find((d) => d.name.value === 'ErrorsWebPixelUserErrorCode')
    ?.values?.map((v) => v.name.value) ?? []

describe('web pixel userErrors in Japanese', () => {
  it('the schema has the enum', () => {
    expect(codes).toEqual(expect.arrayContaining(['TAKEN', 'INVALID_SETTINGS', 'NO_EXTENSION']))
  })

  it.each(codes)('%s has a Japanese sentence (no English words but ID, URL, JSON, Shopify)', (code) => {
    const text = WEB_PIXEL_ERRORS_JA[code]
    expect(text).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/)
    expect(text!.replace(/ID|URL|JSON|Shopify/g, '')).not.toMatch(/[A-Za-z]{2,}/)
  })

  it('joins the sentences once, keeps the platform words as the detail, and reads an unknown code generically', () => {
    expect(
      webPixelErrorsJa([
        {
          code: 'INVALID_SETTINGS',
          field: ['webPixel', 'settings'],
          message: 'Settings accountID is too short.',
        },
        {
          code: 'INVALID_SETTINGS',
          field: ['webPixel', 'settings'],
          message: 'Settings ingestUrl is required.',
        },
      ]),
    ).toEqual({
      message: WEB_PIXEL_ERRORS_JA.INVALID_SETTINGS,
      detail: 'Settings accountID is too short. / Settings ingestUrl is required.',
    })
    expect(webPixelErrorsJa([{ code: 'SOMETHING_NEW', message: '' }])).toEqual({
      message: UNKNOWN_WEB_PIXEL_ERROR_JA,
      detail: null,
    })
  })
})

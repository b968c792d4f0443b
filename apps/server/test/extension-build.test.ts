import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { DEFAULT_DELIVERY_SETTINGS } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { dateLabel, settingsOf } from '../../../extensions/teiki-subscriptions/src/teiki-blocks.ts'
import { BLOCKS_ASSET, buildBlocks } from '../../../scripts/build-extensions.ts'

// The theme app extension's script is built from src/teiki-blocks.ts with the domain's delivery
// calendar bundled in; the committed asset (what Shopify CLI deploys) must be that build.

describe('the storefront blocks’ script', () => {
  it('the committed asset is the build of its source (npm run build:extensions)', () => {
    expect(readFileSync(BLOCKS_ASSET, 'utf8')).toBe(buildBlocks())
  })

  it('names dates as the shopper reads them, with the weekday', () => {
    expect(dateLabel('2026-12-03')).toBe('12月3日（木）')
    expect(dateLabel('2027-01-04')).toBe('1月4日（月）')
    expect(dateLabel('2028-02-29')).toBe('2月29日（火）')
  })

  it('reads the metafield’s settings over the defaults; a missing or broken one is the defaults', () => {
    expect(settingsOf('{"leadDays":5,"carrier":"sagawa"}')).toMatchObject({
      leadDays: 5,
      carrier: 'sagawa',
      cutoff: DEFAULT_DELIVERY_SETTINGS.cutoff,
    })
    expect(settingsOf('')).toEqual(DEFAULT_DELIVERY_SETTINGS)
    expect(settingsOf('null')).toEqual(DEFAULT_DELIVERY_SETTINGS)
    expect(settingsOf('{oops')).toEqual(DEFAULT_DELIVERY_SETTINGS)
  })

  it('stays small: under 15 KB gzip with the calendar', () => {
    expect(gzipSync(readFileSync(BLOCKS_ASSET)).length).toBeLessThan(15 * 1024)
  })
})

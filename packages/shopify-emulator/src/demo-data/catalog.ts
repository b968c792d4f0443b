import type { Interval } from '../records.ts'

/** Products a Japanese subscription shop typically sells; prices are JPY, tax included. */
export type CatalogItem = {
  title: string
  handle: string
  productType: string
  sku: string
  weekly: boolean
  variants: ReadonlyArray<readonly [title: string, price: number]>
}

export const catalog: readonly CatalogItem[] = [
  {
    title: '有機ドリップコーヒー定期便',
    handle: 'organic-drip-coffee',
    productType: 'コーヒー',
    sku: 'COF',
    weekly: true,
    variants: [
      ['中煎り 200g', 1980],
      ['深煎り 200g', 1980],
      ['中煎り 500g', 4280],
      ['深煎り 500g', 4280],
    ],
  },
  {
    title: 'スペシャルティコーヒー豆',
    handle: 'specialty-coffee-beans',
    productType: 'コーヒー',
    sku: 'BEAN',
    weekly: true,
    variants: [
      ['豆のまま', 2480],
      ['粉（中挽き）', 2480],
    ],
  },
  {
    title: '京都宇治抹茶',
    handle: 'uji-matcha',
    productType: 'お茶',
    sku: 'MAT',
    weekly: false,
    variants: [
      ['30g', 2160],
      ['100g', 5400],
    ],
  },
  {
    title: '国産はちみつ',
    handle: 'japanese-honey',
    productType: '食品',
    sku: 'HNY',
    weekly: false,
    variants: [
      ['300g', 1680],
      ['500g', 2680],
    ],
  },
  {
    title: '無添加だしパック',
    handle: 'additive-free-dashi',
    productType: '食品',
    sku: 'DASHI',
    weekly: false,
    variants: [
      ['10包', 1296],
      ['30包', 3456],
    ],
  },
  {
    title: '発酵玄米ごはん',
    handle: 'fermented-brown-rice',
    productType: '食品',
    sku: 'RICE',
    weekly: false,
    variants: [['12食', 3980]],
  },
  {
    title: '北海道グラノーラ',
    handle: 'hokkaido-granola',
    productType: '食品',
    sku: 'GRN',
    weekly: true,
    variants: [
      ['500g', 1580],
      ['1kg', 2980],
    ],
  },
  {
    title: 'オーガニック化粧水',
    handle: 'organic-lotion',
    productType: 'スキンケア',
    sku: 'LOT',
    weekly: false,
    variants: [
      ['150ml', 3300],
      ['300ml', 5940],
    ],
  },
  {
    title: '保湿美容液',
    handle: 'moisture-serum',
    productType: 'スキンケア',
    sku: 'SRM',
    weekly: false,
    variants: [['30ml', 6600]],
  },
  {
    title: '薬用ハンドクリーム',
    handle: 'medicated-hand-cream',
    productType: 'スキンケア',
    sku: 'HND',
    weekly: false,
    variants: [
      ['50g', 1320],
      ['50g×3本', 3564],
    ],
  },
  {
    title: '富士山の天然水',
    handle: 'mt-fuji-water',
    productType: '飲料',
    sku: 'WTR',
    weekly: true,
    variants: [
      ['2L×6本', 1380],
      ['500ml×24本', 2480],
    ],
  },
  {
    title: '国産大麦若葉の青汁',
    handle: 'aojiru',
    productType: '健康食品',
    sku: 'AOJ',
    weekly: false,
    variants: [['30包', 3240]],
  },
  {
    title: '新潟県産コシヒカリ',
    handle: 'niigata-koshihikari',
    productType: '食品',
    sku: 'KOSHI',
    weekly: false,
    variants: [
      ['5kg', 3600],
      ['10kg', 6980],
    ],
  },
  {
    title: 'プレミアムドッグフード',
    handle: 'premium-dog-food',
    productType: 'ペット',
    sku: 'DOG',
    weekly: true,
    variants: [
      ['1kg', 2750],
      ['3kg', 7480],
      ['小粒 1kg', 2750],
    ],
  },
  {
    title: '季節のフルーツジャム3本セット',
    handle: 'seasonal-jam-set',
    productType: '食品',
    sku: 'JAM',
    weekly: false,
    variants: [['3本セット', 2800]],
  },
]

export type PlanTemplate = {
  name: string
  option: string
  interval: Interval
  intervalCount: number
  /** Percent off on the first cycle(s); null for no discount. */
  firstPercent: number | null
  /** Percent off from `afterCycle` on; null when the first discount holds for every cycle. */
  recurringPercent: number | null
  fixedAmountOff: number | null
  anchorDay: number | null
}

export type GroupTemplate = {
  name: string
  merchantCode: string
  option: string
  weight: number
  weekly: boolean
  plans: readonly PlanTemplate[]
}

const plan = (
  p: Partial<PlanTemplate> & Pick<PlanTemplate, 'name' | 'option' | 'interval' | 'intervalCount'>,
) => ({
  firstPercent: null,
  recurringPercent: null,
  fixedAmountOff: null,
  anchorDay: null,
  ...p,
})

/** The selling plan groups of the demo shop; the last one is optional (3–4 groups per shop). */
export const groupTemplates: readonly GroupTemplate[] = [
  {
    name: '毎月お届け',
    merchantCode: 'monthly',
    option: 'お届け頻度',
    weight: 50,
    weekly: false,
    plans: [plan({ name: '毎月お届け', option: '1ヶ月ごと', interval: 'MONTH', intervalCount: 1 })],
  },
  {
    name: '2ヶ月ごと',
    merchantCode: 'bimonthly-10off',
    option: 'お届け頻度',
    weight: 20,
    weekly: false,
    plans: [
      plan({
        name: '2ヶ月ごとお届け（10%オフ）',
        option: '2ヶ月ごと',
        interval: 'MONTH',
        intervalCount: 2,
        firstPercent: 10,
      }),
    ],
  },
  {
    name: '毎週お届け',
    merchantCode: 'weekly',
    option: 'お届け頻度',
    weight: 12,
    weekly: true,
    plans: [
      plan({
        name: '毎週お届け（初回20%オフ）',
        option: '1週間ごと',
        interval: 'WEEK',
        intervalCount: 1,
        firstPercent: 20,
        recurringPercent: 10,
      }),
      plan({
        name: '隔週お届け（初回20%オフ）',
        option: '2週間ごと',
        interval: 'WEEK',
        intervalCount: 2,
        firstPercent: 20,
        recurringPercent: 10,
      }),
    ],
  },
  {
    name: '毎月15日お届け',
    merchantCode: 'monthly-15th',
    option: 'お届け日',
    weight: 18,
    weekly: false,
    plans: [
      plan({
        name: '毎月15日お届け（300円引き）',
        option: '毎月15日',
        interval: 'MONTH',
        intervalCount: 1,
        fixedAmountOff: 300,
        anchorDay: 15,
      }),
    ],
  },
]

/**
 * The 47 prefectures with the platform's province codes (ISO 3166-2:JP, JP-01 北海道 … JP-47
 * 沖縄県), in the order Japanese address forms list them: the one list of the app's address
 * editor, the emulated checkout and the demo data (issue 22). `romaji` is how the platform may
 * spell the province when the address was entered in English (Shopify writes "Tokyo",
 * "Hokkaidō", "Ōsaka").
 */
export type Prefecture = { code: string; name: string; romaji: string }

export const PREFECTURES: readonly Prefecture[] = [
  { code: 'JP-01', name: '北海道', romaji: 'Hokkaido' },
  { code: 'JP-02', name: '青森県', romaji: 'Aomori' },
  { code: 'JP-03', name: '岩手県', romaji: 'Iwate' },
  { code: 'JP-04', name: '宮城県', romaji: 'Miyagi' },
  { code: 'JP-05', name: '秋田県', romaji: 'Akita' },
  { code: 'JP-06', name: '山形県', romaji: 'Yamagata' },
  { code: 'JP-07', name: '福島県', romaji: 'Fukushima' },
  { code: 'JP-08', name: '茨城県', romaji: 'Ibaraki' },
  { code: 'JP-09', name: '栃木県', romaji: 'Tochigi' },
  { code: 'JP-10', name: '群馬県', romaji: 'Gunma' },
  { code: 'JP-11', name: '埼玉県', romaji: 'Saitama' },
  { code: 'JP-12', name: '千葉県', romaji: 'Chiba' },
  { code: 'JP-13', name: '東京都', romaji: 'Tokyo' },
  { code: 'JP-14', name: '神奈川県', romaji: 'Kanagawa' },
  { code: 'JP-15', name: '新潟県', romaji: 'Niigata' },
  { code: 'JP-16', name: '富山県', romaji: 'Toyama' },
  { code: 'JP-17', name: '石川県', romaji: 'Ishikawa' },
  { code: 'JP-18', name: '福井県', romaji: 'Fukui' },
  { code: 'JP-19', name: '山梨県', romaji: 'Yamanashi' },
  { code: 'JP-20', name: '長野県', romaji: 'Nagano' },
  { code: 'JP-21', name: '岐阜県', romaji: 'Gifu' },
  { code: 'JP-22', name: '静岡県', romaji: 'Shizuoka' },
  { code: 'JP-23', name: '愛知県', romaji: 'Aichi' },
  { code: 'JP-24', name: '三重県', romaji: 'Mie' },
  { code: 'JP-25', name: '滋賀県', romaji: 'Shiga' },
  { code: 'JP-26', name: '京都府', romaji: 'Kyoto' },
  { code: 'JP-27', name: '大阪府', romaji: 'Osaka' },
  { code: 'JP-28', name: '兵庫県', romaji: 'Hyogo' },
  { code: 'JP-29', name: '奈良県', romaji: 'Nara' },
  { code: 'JP-30', name: '和歌山県', romaji: 'Wakayama' },
  { code: 'JP-31', name: '鳥取県', romaji: 'Tottori' },
  { code: 'JP-32', name: '島根県', romaji: 'Shimane' },
  { code: 'JP-33', name: '岡山県', romaji: 'Okayama' },
  { code: 'JP-34', name: '広島県', romaji: 'Hiroshima' },
  { code: 'JP-35', name: '山口県', romaji: 'Yamaguchi' },
  { code: 'JP-36', name: '徳島県', romaji: 'Tokushima' },
  { code: 'JP-37', name: '香川県', romaji: 'Kagawa' },
  { code: 'JP-38', name: '愛媛県', romaji: 'Ehime' },
  { code: 'JP-39', name: '高知県', romaji: 'Kochi' },
  { code: 'JP-40', name: '福岡県', romaji: 'Fukuoka' },
  { code: 'JP-41', name: '佐賀県', romaji: 'Saga' },
  { code: 'JP-42', name: '長崎県', romaji: 'Nagasaki' },
  { code: 'JP-43', name: '熊本県', romaji: 'Kumamoto' },
  { code: 'JP-44', name: '大分県', romaji: 'Oita' },
  { code: 'JP-45', name: '宮崎県', romaji: 'Miyazaki' },
  { code: 'JP-46', name: '鹿児島県', romaji: 'Kagoshima' },
  { code: 'JP-47', name: '沖縄県', romaji: 'Okinawa' },
]

const plain = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+(ken|fu|to|prefecture)$/, '')

/**
 * The ISO code of a stored province: a code (`JP-13`), a Japanese name with or without its
 * suffix (`東京都`, `東京`) or the romaji name (`Tokyo`, `Hokkaidō`). Empty when unknown.
 */
export function prefectureCode(province: string | null | undefined): string {
  const text = province?.trim() ?? ''
  if (text === '') return ''
  const byCode = PREFECTURES.find((p) => p.code === text.toUpperCase())
  if (byCode) return byCode.code
  const key = plain(text)
  const match = PREFECTURES.find(
    (p) => p.name === text || p.name.replace(/[都道府県]$/, '') === text || plain(p.romaji) === key,
  )
  return match?.code ?? ''
}

/** The Japanese name of an ISO code (`JP-13` → 東京都), or the code itself when unknown. */
export function prefectureName(code: string): string {
  return PREFECTURES.find((p) => p.code === code)?.name ?? code
}

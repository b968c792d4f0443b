/** Prefectures (ISO 3166-2:JP codes), weighted roughly by population, with a few real wards/cities. */
export type Prefecture = {
  name: string
  code: string
  weight: number
  cities: readonly string[]
  zip: string
}

export const prefectures: readonly Prefecture[] = [
  {
    name: '東京都',
    code: 'JP-13',
    weight: 14,
    cities: ['渋谷区', '世田谷区', '新宿区', '杉並区', '練馬区', '八王子市'],
    zip: '1',
  },
  {
    name: '神奈川県',
    code: 'JP-14',
    weight: 9,
    cities: ['横浜市港北区', '川崎市中原区', '相模原市中央区', '藤沢市'],
    zip: '2',
  },
  {
    name: '大阪府',
    code: 'JP-27',
    weight: 9,
    cities: ['大阪市北区', '大阪市天王寺区', '堺市堺区', '豊中市'],
    zip: '5',
  },
  {
    name: '愛知県',
    code: 'JP-23',
    weight: 7,
    cities: ['名古屋市中区', '名古屋市千種区', '豊田市', '岡崎市'],
    zip: '4',
  },
  {
    name: '埼玉県',
    code: 'JP-11',
    weight: 7,
    cities: ['さいたま市浦和区', '川口市', '所沢市', '川越市'],
    zip: '3',
  },
  {
    name: '千葉県',
    code: 'JP-12',
    weight: 6,
    cities: ['千葉市中央区', '船橋市', '松戸市', '柏市'],
    zip: '2',
  },
  {
    name: '兵庫県',
    code: 'JP-28',
    weight: 5,
    cities: ['神戸市中央区', '西宮市', '姫路市', '尼崎市'],
    zip: '6',
  },
  {
    name: '北海道',
    code: 'JP-01',
    weight: 5,
    cities: ['札幌市中央区', '札幌市北区', '旭川市', '函館市'],
    zip: '0',
  },
  {
    name: '福岡県',
    code: 'JP-40',
    weight: 5,
    cities: ['福岡市中央区', '福岡市博多区', '北九州市小倉北区', '久留米市'],
    zip: '8',
  },
  { name: '静岡県', code: 'JP-22', weight: 3, cities: ['静岡市葵区', '浜松市中央区', '沼津市'], zip: '4' },
  { name: '京都府', code: 'JP-26', weight: 2, cities: ['京都市中京区', '京都市左京区', '宇治市'], zip: '6' },
  { name: '宮城県', code: 'JP-04', weight: 2, cities: ['仙台市青葉区', '仙台市泉区', '石巻市'], zip: '9' },
  { name: '広島県', code: 'JP-34', weight: 2, cities: ['広島市中区', '福山市', '呉市'], zip: '7' },
  { name: '新潟県', code: 'JP-15', weight: 2, cities: ['新潟市中央区', '長岡市'], zip: '9' },
  { name: '長野県', code: 'JP-20', weight: 2, cities: ['長野市', '松本市'], zip: '3' },
  { name: '沖縄県', code: 'JP-47', weight: 1, cities: ['那覇市', '沖縄市'], zip: '9' },
]

export const prefectureWeights = prefectures.map((p) => p.weight)

export const towns: readonly string[] = [
  '本町',
  '中央',
  '緑町',
  '旭町',
  '栄町',
  '桜台',
  '東町',
  '若葉',
  '富士見',
  '青葉台',
  '港南',
  '神南',
]

export const buildings: readonly string[] = [
  'サンハイツ',
  'グランメゾン',
  'パークコート',
  'レジデンス',
  'コーポ',
  'ハイム',
]

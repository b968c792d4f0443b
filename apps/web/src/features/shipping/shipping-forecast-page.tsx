import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Page,
  Select,
  Text,
} from '@shopify/polaris'
import type { ExportEncoding, ShippingForecast } from '@teiki/contract'
import { useState } from 'react'
import { download, errorMessage, saveBlob } from '../../app/api.ts'
import { EncodingSelect } from '../../app/encoding-select.tsx'
import { Loaded } from '../../app/load-state.tsx'
import { useApi } from '../../app/use-api.ts'
import {
  DAYS_CHOICES,
  dayLabel,
  type ForecastDays,
  LAYOUT_CHOICES,
  parseDays,
  periodLabel,
  prefecturesText,
  slotsText,
  totalsLabel,
  unitsText,
} from './shipping-format.ts'

type Layout = (typeof LAYOUT_CHOICES)[number]['value']

/** 出荷予定: the deliveries of the coming days, per day, and their CSV for the warehouse. */
export default function ShippingForecastPage() {
  const [days, setDays] = useState<ForecastDays>(7)
  const state = useApi('GET /shipping-forecast', { query: { days } }, { keepPrevious: true })
  return (
    <Page title="出荷予定">
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="300">
            <InlineStack gap="400" align="space-between" blockAlign="center">
              <div data-testid="shipping-days-select">
                <Select
                  label="期間"
                  labelInline
                  options={[...DAYS_CHOICES]}
                  value={String(days)}
                  onChange={(value) => setDays(parseDays(value))}
                />
              </div>
              {state.data ? (
                <Text as="p" tone="subdued">
                  {periodLabel(state.data)}（日本時間）
                </Text>
              ) : null}
            </InlineStack>
            {state.data ? <Summary forecast={state.data} /> : null}
          </BlockStack>
        </Card>
        <CsvCard days={days} />
        <Card padding="0">
          <Loaded state={state} errorTitle="出荷予定を読み込めませんでした" lines={8}>
            {(forecast) => <DaysTable forecast={forecast} />}
          </Loaded>
        </Card>
      </BlockStack>
    </Page>
  )
}

export function Summary({ forecast }: { forecast: ShippingForecast }) {
  return (
    <BlockStack gap="100">
      <Text as="p" variant="headingLg" id="shipping-totals">
        {totalsLabel(forecast)}
      </Text>
      <Text as="p" tone="subdued">
        配送業者：{forecast.carrier}・お届け日の指定がない注文は請求日から{forecast.prepDays}
        日後（お届け準備期間、お届けのない日はその後）。有効な契約のこれから作られる注文です。作成済みの注文はShopifyの注文一覧にあります。
      </Text>
    </BlockStack>
  )
}

export function DaysTable({ forecast }: { forecast: ShippingForecast }) {
  const rows = forecast.days.map((day) => [
    dayLabel(day.date),
    day.orders === 0 ? '—' : `${day.orders.toLocaleString('ja-JP')}件`,
    unitsText(day),
    slotsText(day),
    prefecturesText(day),
  ])
  return (
    <div data-testid="shipping-days">
      <DataTable
        columnContentTypes={['text', 'numeric', 'text', 'text', 'text']}
        headings={['お届け予定日', '注文', '商品（SKU×数量）', '配送時間帯（コード）', '都道府県']}
        rows={rows}
        verticalAlign="top"
      />
    </div>
  )
}

function CsvCard({ days }: { days: ForecastDays }) {
  const [layout, setLayout] = useState<Layout>('standard')
  const [encoding, setEncoding] = useState<ExportEncoding>('shift_jis')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const onDownload = async () => {
    setBusy(true)
    setProblem(null)
    try {
      const file = await download('GET /shipping-forecast/csv', '出荷予定.csv', {
        query: { days, layout, encoding },
      })
      saveBlob(file.blob, file.filename)
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          CSVダウンロード
        </Text>
        <InlineStack gap="400" blockAlign="end" wrap>
          <Select
            label="レイアウト"
            options={[...LAYOUT_CHOICES]}
            value={layout}
            onChange={(value) => setLayout(value === 'yamato-b2' ? 'yamato-b2' : 'standard')}
          />
          <EncodingSelect value={encoding} onChange={setEncoding} />
          <Button onClick={onDownload} loading={busy} variant="primary">
            CSVをダウンロード
          </Button>
        </InlineStack>
        <Text as="p" tone="subdued">
          1注文1行、お届け予定日順。標準はお届け予定日・配送時間帯コード・住所・出荷SKUを、B2クラウド取込用はヤマト運輸の送り状発行データの列順で出力します。
        </Text>
        {problem ? (
          <Banner tone="critical" title="CSVを作成できませんでした">
            <p>{problem}</p>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  )
}

import { Banner, BlockStack, Box, Button, Card, InlineStack, Page, Select, Text } from '@shopify/polaris'
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

/** When an order without a chosen date arrives (お届け準備期間). */
function prepText(days: number): string {
  const when = days === 0 ? '請求日当日' : `請求日から${days}日後`
  return `お届け日の指定がない注文は${when}にお届け（お届けのない日は次のお届け可能日）。`
}

export function Summary({ forecast }: { forecast: ShippingForecast }) {
  return (
    <BlockStack gap="100">
      <Text as="p" variant="headingLg" id="shipping-totals">
        {totalsLabel(forecast)}
      </Text>
      <Text as="p" tone="subdued">
        配送業者：{forecast.carrier}・{prepText(forecast.prepDays)}
        有効な契約のこれから作られる注文です。作成済みの注文はShopifyの注文一覧にあります。
      </Text>
    </BlockStack>
  )
}

export function DaysTable({ forecast }: { forecast: ShippingForecast }) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="shipping-days">
      {forecast.days.map((day) => (
        <li key={day.date} data-testid="shipping-day">
          <Box padding="400" borderBlockEndWidth="025" borderColor="border-secondary">
            <BlockStack gap="100">
              <InlineStack gap="300" blockAlign="baseline">
                <Text as="h3" variant="headingSm">
                  <span style={{ whiteSpace: 'nowrap' }}>{dayLabel(day.date)}</span>
                </Text>
                <Text as="span" tone={day.orders === 0 ? 'subdued' : undefined}>
                  {day.orders === 0 ? 'お届けなし' : `${day.orders.toLocaleString('ja-JP')}件`}
                </Text>
              </InlineStack>
              {day.orders > 0 ? (
                <>
                  <DayLine label="商品（SKU×数量）" text={unitsText(day)} />
                  <DayLine label="配送時間帯（コード）" text={slotsText(day)} />
                  <DayLine label="都道府県" text={prefecturesText(day)} />
                </>
              ) : null}
            </BlockStack>
          </Box>
        </li>
      ))}
    </ul>
  )
}

function DayLine({ label, text }: { label: string; text: string }) {
  return (
    <Text as="p" variant="bodySm">
      <Text as="span" tone="subdued">
        {label}：
      </Text>
      {text}
    </Text>
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

import {
  Badge,
  BlockStack,
  Button,
  Card,
  InlineStack,
  SkeletonBodyText,
  Text,
  TextField,
} from '@shopify/polaris'
import { type PixelSettings, ZPixelSettings } from '@teiki/contract'
import { splitPlatformDetail } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { ApiError, api, errorMessage } from '../../app/api.ts'
import { LoadErrorState } from '../../app/load-state.tsx'
import { PlatformMessageText } from '../../app/platform-message-text.tsx'
import { useLoader } from '../../app/use-api.ts'
import { analyticsApi } from './analytics-api.ts'
import { pixelView } from './pixel-model.ts'

/** POST /traffic/pixel-connection: the platform's pixel created or brought up to date. */
async function connectPixel(): Promise<PixelSettings> {
  const parsed = ZPixelSettings.safeParse(await api('POST /traffic/pixel-connection'))
  if (!parsed.success) throw new ApiError(200, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')
  return parsed.data
}

/** The web pixel card of 流入元: the pixel's state on the platform, its settings, and (when missing) the connect button. */
export function PixelCard() {
  const state = useLoader(['pixel-settings'], () => analyticsApi.pixelSettings())
  const { retry } = state
  const [data, setData] = useState<PixelSettings | null>(null)
  const [connecting, setConnecting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  useEffect(() => {
    if (state.data) setData(state.data)
  }, [state.data])
  const connect = () => {
    setConnecting(true)
    setFailure(null)
    connectPixel().then(
      (next) => {
        setData(next)
        setConnecting(false)
      },
      (error: unknown) => {
        setFailure(errorMessage(error))
        setConnecting(false)
        // The server recorded the failure: read the card again for its state and date.
        retry()
      },
    )
  }
  if (state.error && !state.data && !state.isValidating)
    return (
      <LoadErrorState
        title="ウェブピクセルの状態を読み込めませんでした"
        error={state.error}
        onRetry={retry}
      />
    )
  return <PixelCardView data={data} connecting={connecting} failure={failure} onConnect={connect} />
}

export function PixelCardView({
  data,
  connecting,
  failure,
  onConnect,
}: {
  data: PixelSettings | null
  connecting: boolean
  /** The last button press's error (Japanese, with the platform's words after 詳細). */
  failure: string | null
  onConnect: () => void
}) {
  const view = data ? pixelView(data.connection) : null
  const reason = failure ?? data?.connection.error ?? null
  return (
    <div data-testid="pixel-card">
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              ウェブピクセル
            </Text>
            {view && <Badge tone={view.badge.tone}>{view.badge.label}</Badge>}
          </InlineStack>
          <Text as="p" tone="subdued">
            アプリのウェブピクセル（teiki-pixel）がページ閲覧と購入完了を送信します。URL の
            utm_source・utm_medium・utm_campaign・utm_content
            を読み取り、購入の30日前までで最後の流入元を定期契約に紐づけます。
          </Text>
          {!data && <SkeletonBodyText lines={3} />}
          {view?.note && <Text as="p">{view.note}</Text>}
          {view?.action && reason && <PlatformMessageText message={splitPlatformDetail(reason)} />}
          {view?.action && (
            <InlineStack>
              <Button variant="primary" onClick={onConnect} loading={connecting}>
                {view.action}
              </Button>
            </InlineStack>
          )}
          {data && (
            <TextField
              label="アカウントID（ピクセルの設定値）"
              value={data.accountID}
              readOnly
              autoComplete="off"
            />
          )}
        </BlockStack>
      </Card>
    </div>
  )
}

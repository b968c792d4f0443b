import { Banner, BlockStack, Button, Card, FormLayout, Text, TextField } from '@shopify/polaris'
import type { PixelConnection } from '@teiki/contract'
import { TAG_PLACEHOLDERS } from '@teiki/domain'
import { type Bind, JsonField } from './json-field.tsx'

const PIXEL_STATE: Record<PixelConnection['status'], string> = {
  connected: 'ウェブピクセル: 接続済み（計測タグは保存するとすぐに反映されます）',
  missing: 'ウェブピクセル: 未接続（流入元の画面で接続すると計測タグが送信されます）',
  failed: 'ウェブピクセル: 接続できていません',
}

const PLACEHOLDERS = Object.entries(TAG_PLACEHOLDERS)
  .map(([key, label]) => `{${key}}＝${label}`)
  .join('、')

/**
 * 設定 › サンクスページ (ADR 0039): where each part goes today — the message to the app's
 * thank-you block, the 計測タグ to the app's web pixel — and an old script, kept but not run.
 */
export function ThankYouCard({
  bind,
  legacyScript,
  clearLegacy,
  pixel,
}: {
  bind: Bind
  legacyScript: string
  clearLegacy: () => void
  pixel: PixelConnection | null
}) {
  return (
    <Card>
      <FormLayout>
        <div data-testid="settings-thank-you-message">
          <TextField
            label="メッセージ"
            multiline={3}
            maxLength={1000}
            helpText="注文完了ページの「定期便のご案内」ブロック（アプリのチェックアウト拡張機能）に、初回と次回のお届け予定と一緒に表示します。ブロックは Shopify 管理画面の 設定 › チェックアウト › カスタマイズ で、サンクスページに追加してください。"
            {...bind('thankYouMessage')}
          />
        </div>
        <JsonField
          testId="settings-conversion-tags"
          label="計測タグ（JSON）"
          helpText={`例: [{"name":"A8.net","url":"https://px.a8.net/a8fly/earnings?a8mat=…&so={order_id}&si={total}-1-{total}-a8","subscriptionOnly":true}]。注文が完了すると、アプリのウェブピクセルがこのURLを読み込みます（${PLACEHOLDERS}に置き換え。subscriptionOnly が true のタグは定期購入を含む注文だけ）。https のURLを10件まで。`}
          field="conversionTags"
          bind={bind}
        />
        {pixel ? (
          <Text as="p" tone={pixel.status === 'connected' ? 'subdued' : 'caution'}>
            {PIXEL_STATE[pixel.status]}
            {pixel.error ? `：${pixel.error}` : ''}
          </Text>
        ) : null}
        {legacyScript ? (
          <Banner tone="warning" title="以前保存したスクリプトは実行されていません">
            <BlockStack gap="200">
              <p>
                注文完了ページでストアのスクリプトは実行されなくなりました。計測に使っていたURLは計測タグに移し、このスクリプトは削除してください。
              </p>
              <TextField
                label="以前のスクリプト"
                labelHidden
                multiline={4}
                monospaced
                readOnly
                value={legacyScript}
                autoComplete="off"
              />
              <div>
                <Button onClick={clearLegacy}>以前のスクリプトを削除</Button>
              </div>
            </BlockStack>
          </Banner>
        ) : null}
      </FormLayout>
    </Card>
  )
}

import { BlockStack, Box, Button, InlineStack, Text } from '@shopify/polaris'
import { useEffect, useId, useRef } from 'react'

/**
 * Blocking modal shown when the app needs an update (new access scopes). Polaris `Modal`
 * always renders a close button, so this dialog is built from primitives: no close button,
 * no Escape, no backdrop click, focus kept on the update button.
 */
export function UpdateRequiredModal({ updateUri }: { updateUri: string }) {
  const titleId = useId()
  const bodyId = useId()
  const containerRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    containerRef.current?.querySelector<HTMLElement>('button')?.focus()
  }, [])

  return (
    <div
      ref={containerRef}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="update-required-modal"
      onKeyDown={(event) => {
        // Only one focusable element: keep Tab inside the dialog.
        if (event.key === 'Tab') {
          event.preventDefault()
          containerRef.current?.querySelector<HTMLElement>('button')?.focus()
        }
      }}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 519,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '16px',
        background: 'var(--p-color-backdrop-bg)',
      }}
    >
      <div style={{ width: '100%', maxWidth: '620px' }}>
        <Box background="bg-surface" borderRadius="400" shadow="600" overflowX="hidden" overflowY="hidden">
          <Box padding="400" background="bg-surface-tertiary" borderBlockEndWidth="025" borderColor="border">
            <Text id={titleId} as="h2" variant="headingMd">
              アプリの更新が必要です
            </Text>
          </Box>
          <Box padding="400">
            <BlockStack gap="200">
              <Text id={bodyId} as="p">
                新機能の追加に伴い、アプリの更新が必要です。テーマデータへのアクセス権限の設定を更新してください。
              </Text>
              <Text as="p" tone="subdued">
                更新では、全期間の注文の読み取り（60日より前の注文。分析・継続率・LTV・顧客詳細の集計に使います）の許可もお願いしています。
              </Text>
            </BlockStack>
          </Box>
          <Box padding="400" borderBlockStartWidth="025" borderColor="border">
            <InlineStack align="end">
              <Button variant="primary" onClick={() => window.open(updateUri, '_top')}>
                アプリを更新
              </Button>
            </InlineStack>
          </Box>
        </Box>
      </div>
    </div>
  )
}

import { Card, EmptyState, Page } from '@shopify/polaris'
import { EMPTY_STATE_IMAGE } from './empty-state-image.ts'

export default function NotFoundPage() {
  return (
    <Page title="ページが見つかりません">
      <Card>
        <EmptyState
          heading="お探しのページは見つかりませんでした"
          action={{ content: '契約一覧へ戻る', url: '/' }}
          image={EMPTY_STATE_IMAGE}
        >
          <p>URLが正しいかご確認ください。ページが移動または削除された可能性があります。</p>
        </EmptyState>
      </Card>
    </Page>
  )
}

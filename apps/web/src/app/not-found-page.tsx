import { Card, Page } from '@shopify/polaris'
import { EmptyListState } from './load-state.tsx'

export default function NotFoundPage() {
  return (
    <Page title="ページが見つかりません">
      <Card>
        <EmptyListState
          heading="お探しのページは見つかりませんでした"
          action={{ content: '契約一覧へ戻る', url: '/' }}
        >
          <p>URLが正しいかご確認ください。ページが移動または削除された可能性があります。</p>
        </EmptyListState>
      </Card>
    </Page>
  )
}

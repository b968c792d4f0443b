import { Banner, Button, DataTable, SkeletonBodyText, Text } from '@shopify/polaris'
import type { RetentionOffers } from '@teiki/contract'
import { formatMoney, formatNumber } from '@teiki/domain'
import { useState } from 'react'
import { SectionCard } from '../../app/section-card.tsx'
import { type Phase, phase, useApi } from '../../app/use-api.ts'
import { OfferModal } from './offer-modal.tsx'
import { groupShareLabel } from './reasons-state.ts'
import { OFFERS_INPUT, type OfferRow, toOfferDraft } from './retention-offers.ts'

/** 解約防止オファー: each reason's offer and what subscribers did with it; オファーを設定 edits one. */
export function RetentionOffersCard() {
  const loaded = useApi('GET /retention-offers', OFFERS_INPUT)
  const [editing, setEditing] = useState<OfferRow | null>(null)
  return (
    <>
      <RetentionOffersView state={phase(loaded)} onEdit={setEditing} onRetry={loaded.retry} />
      {editing ? (
        <OfferModal row={editing} initial={toOfferDraft(editing.offer)} onClose={() => setEditing(null)} />
      ) : null}
    </>
  )
}

const count = (n: number) => `${formatNumber(n)}件`
/** Revenue kept, in yen (the shop's currency: the app sells in JPY). */
const yen = (amount: number) => formatMoney(amount, 'JPY')

export function RetentionOffersView({
  state,
  onEdit,
  onRetry,
}: {
  state: Phase<RetentionOffers>
  onEdit: (row: OfferRow) => void
  onRetry: () => void
}) {
  return (
    <SectionCard
      title="解約防止オファー"
      description="マイページで解約しようとしたお客様に、選んだ解約理由のオファーを一度だけ提示します。受け入れると契約は続き、断ると解約されます。継続率は、オファーを提示したお客様のうち継続した割合です。"
      gap="300"
    >
      {state.status === 'loading' ? (
        <SkeletonBodyText lines={4} />
      ) : state.status === 'error' ? (
        <Banner tone="critical" action={{ content: '再試行', onAction: onRetry }}>
          <p>{state.message}</p>
        </Banner>
      ) : state.data.reasons.length === 0 ? (
        <Text as="p" tone="subdued">
          解約理由を登録すると、理由ごとにオファーを設定できます。
        </Text>
      ) : (
        <div data-testid="retention-offers">
          <DataTable
            columnContentTypes={[
              'text',
              'text',
              'numeric',
              'numeric',
              'numeric',
              'numeric',
              'numeric',
              'text',
            ]}
            headings={[
              '解約理由',
              'オファー',
              '申請',
              'オファー提示',
              '継続',
              '継続率',
              '継続による売上',
              '',
            ]}
            rows={state.data.reasons.map((row) => [
              row.reason,
              row.offerLabel ?? 'なし',
              count(row.asked),
              count(row.offered),
              count(row.kept),
              groupShareLabel(row.kept, row.offered),
              yen(row.revenueKept),
              <Button
                key={row.reasonId}
                onClick={() => onEdit(row)}
                accessibilityLabel={`「${row.reason}」のオファーを設定`}
              >
                オファーを設定
              </Button>,
            ])}
            totals={[
              '',
              '',
              count(state.data.totals.asked),
              count(state.data.totals.offered),
              count(state.data.totals.kept),
              groupShareLabel(state.data.totals.kept, state.data.totals.offered),
              yen(state.data.totals.revenueKept),
              '',
            ]}
            showTotalsInFooter
            totalsName={{ singular: '合計', plural: '合計' }}
          />
        </div>
      )}
    </SectionCard>
  )
}

import { Button } from '@shopify/polaris'
import type { SubscriptionDetail } from '@teiki/contract'
import { useState } from 'react'
import { ConfirmModal } from './confirm-modal.tsx'
import { planCreateOrderNow } from './contract-edits.ts'

/** 今すぐ注文を作成: bills the contract now instead of on its next billing date (asks first). */
export function OrderNowButton({
  detail,
  reload,
  disabled,
}: {
  detail: SubscriptionDetail
  reload: () => void
  disabled: boolean
}) {
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <span data-testid="order-now">
        <Button onClick={() => setConfirming(true)} disabled={disabled}>
          今すぐ注文を作成
        </Button>
      </span>
      {confirming ? (
        <ConfirmModal
          title="今すぐ注文を作成しますか？"
          message={`契約 #${detail.contractId} の決済を今すぐ行い、注文を作成します。次回請求日を待たずに顧客へ請求されます。`}
          confirmLabel="注文を作成する"
          destructive={false}
          plan={() => planCreateOrderNow(detail)}
          reload={reload}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </>
  )
}

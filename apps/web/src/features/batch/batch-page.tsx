import { Banner, BlockStack, Button, InlineStack, Layout, Page, Text } from '@shopify/polaris'
import type { BatchJob, BatchPreview } from '@teiki/contract'
import { formatNumber } from '@teiki/domain'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../app/api.ts'
import { SectionCard } from '../../app/section-card.tsx'
import { useUiState } from '../../app/ui-state.tsx'
import { invalidate, useApi } from '../../app/use-api.ts'
import { fetchPreview, isRunning, startBatch } from './batch-api.ts'
import { BatchContractsTable } from './batch-contracts-table.tsx'
import { type BatchBody, type BatchForm, batchRequest, EMPTY_FORM } from './batch-form.ts'
import { BatchFormCard } from './batch-form-card.tsx'
import { BatchProgressCard } from './batch-progress-card.tsx'
import { RecentBatchesCard } from './recent-batches-card.tsx'

type Preview = { data: BatchPreview; body: BatchBody; form: BatchForm }

/**
 * 一括更新 (issue 17): choose what to change (swap or remove a variant, move a billing day),
 * see how many contracts it touches and which, start it, follow its progress, cancel it, and
 * read what it did to each contract.
 */
export default function BatchPage() {
  const { showToast } = useUiState()
  const [form, setForm] = useState<BatchForm>(EMPTY_FORM)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [job, setJob] = useState<BatchJob | null>(null)
  const batches = useApi('GET /batch-updates').data?.batches
  const recent = batches ?? []
  const ended = job !== null && !isRunning(job)

  // A batch already under way (another tab, a reload) is shown at once.
  useEffect(() => {
    if (batches) setJob((current) => current ?? batches.find(isRunning) ?? batches[0] ?? null)
  }, [batches])
  // The list follows each end of a batch.
  useEffect(() => {
    if (ended) void invalidate('GET /batch-updates')
  }, [ended])

  const change = useCallback((next: BatchForm) => {
    setForm(next)
    setPreview(null)
    setMessage(null)
  }, [])

  const loadPreview = async (offset: number, body?: BatchBody) => {
    const request = body ? { ok: true as const, body } : batchRequest(form)
    if (!request.ok) {
      setMessage(request.message)
      return
    }
    setBusy(true)
    try {
      const data = await fetchPreview(request.body, offset)
      setPreview({ data, body: request.body, form })
      setMessage(null)
    } catch (error) {
      setMessage(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const start = async () => {
    if (!preview) return
    setBusy(true)
    try {
      const started = await startBatch(preview.body)
      setJob(started)
      setPreview(null)
      showToast(`一括更新を開始しました（${formatNumber(started.total)}件）`)
    } catch (error) {
      setMessage(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const running = job !== null && isRunning(job)
  return (
    <Page
      title="一括更新"
      subtitle="商品の入れ替え・削除や次回請求日の変更を、対象の契約すべてにまとめて行います"
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {job ? <BatchProgressCard job={job} onChange={setJob} /> : null}
            <BatchFormCard form={form} onChange={change} disabled={busy} />
            {message ? (
              <div data-testid="batch-message">
                <Banner tone="critical">{message}</Banner>
              </div>
            ) : null}
            <InlineStack align="end">
              <div data-testid="batch-preview-button">
                <Button onClick={() => void loadPreview(0)} loading={busy && !preview} disabled={busy}>
                  対象の契約を確認
                </Button>
              </div>
            </InlineStack>
            {preview ? (
              <SectionCard title="対象の契約" gap="300">
                <div data-testid="batch-preview-count">
                  <Text as="p" variant="headingLg">
                    {formatNumber(preview.data.total)}件の契約が対象です
                  </Text>
                </div>
                <Text as="p" tone="subdued">
                  {preview.data.summary}（解約済み・期限切れの契約は対象外です）
                </Text>
                <BatchContractsTable
                  rows={preview.data.contracts}
                  total={preview.data.total}
                  offset={preview.data.offset}
                  limit={preview.data.limit}
                  onPage={(offset) => void loadPreview(offset, preview.body)}
                />
                <InlineStack align="end">
                  <div data-testid="batch-start-button">
                    <Button
                      variant="primary"
                      onClick={() => void start()}
                      loading={busy}
                      disabled={preview.data.total === 0 || running}
                    >
                      {`一括更新を開始（${formatNumber(preview.data.total)}件）`}
                    </Button>
                  </div>
                </InlineStack>
                {running ? (
                  <Text as="p" tone="subdued">
                    実行中の一括更新が終わってから開始できます。
                  </Text>
                ) : null}
              </SectionCard>
            ) : null}
            <RecentBatchesCard batches={recent} shownId={job?.id ?? null} onShow={setJob} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  )
}

import {
  Banner,
  BlockStack,
  Button,
  ChoiceList,
  FormLayout,
  InlineStack,
  Modal,
  ProgressBar,
  Select,
  Text,
  TextField,
} from '@shopify/polaris'
import type { ExportEncoding, ExportJob, SubscriptionStatus } from '@teiki/contract'
import { formatNumber, SUBSCRIPTION_STATUSES, statusLabel } from '@teiki/domain'
import { useEffect, useRef, useState } from 'react'
import { errorMessage, isAbortError, saveBlob } from '../../../app/api.ts'
import { DateField } from '../../../app/date-field.tsx'
import { EmailField } from '../../../app/email-field.tsx'
import { ENCODING_CHOICES } from '../../../app/encoding-select.tsx'
import { useUiState } from '../../../app/ui-state.tsx'
import { WithTestId } from '../../../app/with-test-id.tsx'
import type { SearchFilters } from '../search-request.ts'
import {
  carriedFiltersNote,
  checkExportForm,
  downloadExport,
  type ExportForm,
  type ExportFormField,
  exportFormFromList,
  INTERVAL_OPTIONS,
  progressLabel,
  progressPercent,
  runExportJob,
} from './export-job.ts'

const STATUS_CHOICES = SUBSCRIPTION_STATUSES.map((status) => ({ label: statusLabel[status], value: status }))

type Phase =
  | { kind: 'form'; errors: Partial<Record<ExportFormField, string>>; message: string | null }
  | { kind: 'running'; job: ExportJob | null }
  | { kind: 'done'; job: ExportJob }

/**
 * The export dialog, loaded when 「CSVエクスポート」 is first clicked (export-button.tsx): it
 * starts from the list's filters and says what it carried over.
 */
export default function ExportModal({
  filters,
  searchText,
  onClose,
}: {
  filters: SearchFilters
  searchText: string
  onClose: () => void
}) {
  const { showToast } = useUiState()
  const [form, setForm] = useState<ExportForm>(() => exportFormFromList(filters))
  const note = carriedFiltersNote(filters, searchText)
  const [phase, setPhase] = useState<Phase>({ kind: 'form', errors: {}, message: null })
  const [downloading, setDownloading] = useState(false)
  const controller = useRef<AbortController | null>(null)

  // Closing the modal stops following the job (the export itself finishes on the server).
  useEffect(() => () => controller.current?.abort(), [])

  const set =
    <K extends ExportFormField>(field: K) =>
    (value: ExportForm[K]) => {
      setForm((current) => ({ ...current, [field]: value }))
      setPhase((current) =>
        current.kind === 'form' && current.errors[field]
          ? { ...current, errors: { ...current.errors, [field]: undefined } }
          : current,
      )
    }

  const submit = async () => {
    const checked = checkExportForm(form)
    if (!checked.ok) {
      setPhase({ kind: 'form', errors: checked.errors, message: '入力内容を確認してください' })
      return
    }
    controller.current?.abort()
    const abort = new AbortController()
    controller.current = abort
    setPhase({ kind: 'running', job: null })
    try {
      const job = await runExportJob(checked.request, {
        signal: abort.signal,
        onUpdate: (update) => setPhase({ kind: 'running', job: update }),
      })
      setPhase({ kind: 'done', job })
      showToast(`CSVエクスポートが完了しました（${formatNumber(job.doneRows)}件）`)
    } catch (error) {
      if (isAbortError(error)) return
      setPhase({ kind: 'form', errors: {}, message: errorMessage(error) })
    }
  }

  const download = async (job: ExportJob) => {
    setDownloading(true)
    try {
      const file = await downloadExport(job, controller.current?.signal)
      saveBlob(file.blob, file.filename)
      showToast('CSVをダウンロードしました')
    } catch (error) {
      if (!isAbortError(error)) showToast(errorMessage(error), { error: true })
    } finally {
      setDownloading(false)
    }
  }

  return (
    <Modal open title="契約をCSVでエクスポート" onClose={onClose}>
      <Modal.Section>
        {phase.kind === 'form' ? (
          <BlockStack gap="300">
            {note ? (
              <div data-testid="export-carried-filters">
                <Text as="p" tone="subdued">
                  {note}
                </Text>
              </div>
            ) : null}
            <ExportFormFields form={form} errors={phase.errors} message={phase.message} set={set} />
          </BlockStack>
        ) : (
          <ExportProgress phase={phase} />
        )}
      </Modal.Section>
      <Modal.Section>
        <InlineStack align="end" gap="200">
          <Button onClick={onClose}>{phase.kind === 'done' ? '閉じる' : 'キャンセル'}</Button>
          {phase.kind === 'done' ? (
            <WithTestId id="export-download">
              <Button variant="primary" loading={downloading} onClick={() => void download(phase.job)}>
                ダウンロード
              </Button>
            </WithTestId>
          ) : (
            <WithTestId id="export-submit">
              <Button variant="primary" loading={phase.kind === 'running'} onClick={() => void submit()}>
                エクスポート
              </Button>
            </WithTestId>
          )}
        </InlineStack>
      </Modal.Section>
    </Modal>
  )
}

function ExportFormFields({
  form,
  errors,
  message,
  set,
}: {
  form: ExportForm
  errors: Partial<Record<ExportFormField, string>>
  message: string | null
  set: <K extends ExportFormField>(field: K) => (value: ExportForm[K]) => void
}) {
  return (
    <FormLayout>
      {message ? <Banner tone="critical">{message}</Banner> : null}
      <EmailField
        label="メールアドレス（送信先）"
        value={form.email}
        onChange={set('email')}
        error={errors.email}
        helpText="入力すると、完成したCSVをこのアドレスにもメールでお送りします（10MBを超える場合はダウンロードのご案内のみ）。"
      />
      <FormLayout.Group condensed>
        <DateField
          testId="export-next-billing-from"
          label="次回請求日 開始"
          value={form.nextBillingDateStartDate}
          clearable
          placeholder="指定なし"
          onChange={set('nextBillingDateStartDate')}
          error={errors.nextBillingDateStartDate}
        />
        <DateField
          testId="export-next-billing-to"
          label="次回請求日 終了"
          value={form.nextBillingDateEndDate}
          clearable
          placeholder="指定なし"
          onChange={set('nextBillingDateEndDate')}
          error={errors.nextBillingDateEndDate}
        />
      </FormLayout.Group>
      <FormLayout.Group condensed>
        <DateField
          testId="export-created-from"
          label="作成日 開始"
          value={form.createdDateStartDate}
          clearable
          placeholder="指定なし"
          onChange={set('createdDateStartDate')}
          error={errors.createdDateStartDate}
        />
        <DateField
          testId="export-created-to"
          label="作成日 終了"
          value={form.createdDateEndDate}
          clearable
          placeholder="指定なし"
          onChange={set('createdDateEndDate')}
          error={errors.createdDateEndDate}
        />
      </FormLayout.Group>
      <ChoiceList
        title="ステータス（未選択はすべて）"
        allowMultiple
        choices={STATUS_CHOICES}
        selected={form.statuses}
        onChange={(selected) => set('statuses')(selected as SubscriptionStatus[])}
        error={errors.statuses}
      />
      <FormLayout.Group condensed>
        <TextField
          label="購入回数 最小"
          type="number"
          min={0}
          autoComplete="off"
          value={form.purchaseCountMin}
          onChange={set('purchaseCountMin')}
          error={errors.purchaseCountMin}
        />
        <TextField
          label="購入回数 最大"
          type="number"
          min={0}
          autoComplete="off"
          value={form.purchaseCountMax}
          onChange={set('purchaseCountMax')}
          error={errors.purchaseCountMax}
        />
      </FormLayout.Group>
      <FormLayout.Group condensed>
        <Select
          label="請求間隔 単位"
          options={INTERVAL_OPTIONS}
          value={form.interval}
          onChange={(value) => set('interval')(value as ExportForm['interval'])}
          error={errors.interval}
        />
        <TextField
          label="請求間隔 間隔"
          type="number"
          min={1}
          autoComplete="off"
          value={form.intervalCount}
          onChange={set('intervalCount')}
          error={errors.intervalCount}
        />
      </FormLayout.Group>
      <div data-testid="export-encoding">
        <ChoiceList
          title="文字コード"
          choices={ENCODING_CHOICES}
          selected={[form.encoding]}
          onChange={(selected) => set('encoding')((selected[0] ?? 'utf-8') as ExportEncoding)}
        />
      </div>
    </FormLayout>
  )
}

/** The job while it runs (one bar from the first answer to the end) and what it made. */
function ExportProgress({ phase }: { phase: Exclude<Phase, { kind: 'form' }> }) {
  return (
    <BlockStack gap="300">
      {/* One bar from the first answer to the end, so it fills up instead of restarting. */}
      <div data-testid="export-progress">
        <BlockStack gap="200">
          {phase.kind === 'running' ? (
            <Text as="p">CSVを作成しています。このままお待ちください。</Text>
          ) : null}
          <ProgressBar
            progress={phase.job ? progressPercent(phase.job) : 0}
            size="small"
            tone={phase.kind === 'done' ? 'success' : 'highlight'}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {phase.job ? progressLabel(phase.job) : '準備しています…'}
          </Text>
        </BlockStack>
      </div>
      {phase.kind === 'done' ? (
        <>
          <Text as="p">
            {formatNumber(phase.job.doneRows)}件の契約をCSV（{phase.job.fileName}）にしました。
            {phase.job.email && !phase.job.error ? `${phase.job.email} にもメールでお送りしました。` : ''}
          </Text>
          {phase.job.error ? <Banner tone="warning">{phase.job.error}</Banner> : null}
        </>
      ) : null}
    </BlockStack>
  )
}

import { Modal } from '@shopify/polaris'
import { UpgradePrompt } from '../../plans/feature-gate.tsx'

/** 「CSVエクスポート」 on a plan without it: the upgrade prompt, in a dialog (loaded on the click). */
export default function ExportUpgradeModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title="CSVエクスポート" onClose={onClose}>
      <Modal.Section>
        <UpgradePrompt feature="csvExport" />
      </Modal.Section>
    </Modal>
  )
}

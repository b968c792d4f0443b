import { Select } from '@shopify/polaris'
import type { ExportEncoding } from '@teiki/contract'

/** The character sets a CSV is offered in: UTF-8 with a BOM, or Shift_JIS for Excel. */
export const ENCODING_CHOICES: Array<{ label: string; value: ExportEncoding }> = [
  { label: 'UTF-8（BOM付き）', value: 'utf-8' },
  { label: 'Shift_JIS（Excel向け）', value: 'shift_jis' },
]

const isEncoding = (value: string): value is ExportEncoding => ENCODING_CHOICES.some((c) => c.value === value)

/** 文字コード: the character set of a CSV the merchant downloads or has mailed. */
export function EncodingSelect({
  value,
  onChange,
}: {
  value: ExportEncoding
  onChange: (value: ExportEncoding) => void
}) {
  return (
    <Select
      label="文字コード"
      options={ENCODING_CHOICES}
      value={value}
      onChange={(next) => isEncoding(next) && onChange(next)}
    />
  )
}

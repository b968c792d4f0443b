// What the block shows, as a tree of the platform's checkout components (BlockStack, Heading,
// TextBlock, Text): pure, so it is tested without a checkout (test/view.test.ts) and the entry
// (index.ts) only turns it into components. The answer is the app's (GET /extensions/thank-you).

export type Answer = {
  message: string
  pending: boolean
  contracts: Array<{
    contractId: string
    planName: string
    firstDeliveryDate: string | null
    deliveryTime: string | null
    nextBillingDate: string | null
    nextDeliveryDate: string | null
  }>
}

export type ViewNode = {
  type: 'BlockStack' | 'Heading' | 'TextBlock' | 'Text'
  props: Record<string, unknown>
  children: Array<ViewNode | string>
}

/** Where the block is: asking the app, its answer, or given up asking (the app did not know the order in time). */
export type BlockState =
  | { kind: 'loading' }
  | { kind: 'answer'; answer: Answer }
  | { kind: 'gave-up'; answer: Answer | null }

const node = (
  type: ViewNode['type'],
  props: Record<string, unknown>,
  ...children: Array<ViewNode | string>
): ViewNode => ({
  type,
  props,
  children,
})

/** 2026-12-01 → 2026年12月1日 (the date is already the shop's calendar day). */
export function dateJa(date: string): string {
  const [y, m, d] = date.split('-')
  return `${y}年${Number(m)}月${Number(d)}日`
}

function contractNodes(c: Answer['contracts'][number]): ViewNode {
  const slot = c.deliveryTime ? `（${c.deliveryTime}）` : ''
  const first = c.firstDeliveryDate ? `${dateJa(c.firstDeliveryDate)}${slot}` : `日付指定なし${slot}`
  const lines: ViewNode[] = [
    node('TextBlock', { emphasis: 'bold' }, c.planName || '定期購入'),
    node('TextBlock', {}, `初回のお届け: ${first}`),
  ]
  if (c.nextBillingDate && c.nextDeliveryDate)
    lines.push(
      node('TextBlock', {}, `次回のお届け予定: ${dateJa(c.nextDeliveryDate)}${slot}`),
      node(
        'TextBlock',
        { appearance: 'subdued', size: 'small' },
        `次回のお支払い: ${dateJa(c.nextBillingDate)}`,
      ),
    )
  return node('BlockStack', { spacing: 'extraTight' }, ...lines)
}

const messageNodes = (message: string) =>
  message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => node('TextBlock', {}, line))

/** The block's tree; [] when there is nothing to show (not a subscription order, no message). */
export function blockView(state: BlockState): ViewNode[] {
  const heading = node('Heading', { level: 2 }, '定期便のご案内')
  if (state.kind === 'loading')
    return [
      node(
        'BlockStack',
        {},
        heading,
        node('TextBlock', { appearance: 'subdued' }, 'お届け予定を確認しています…'),
      ),
    ]
  const answer = state.answer
  const message = messageNodes(answer?.message ?? '')
  const contracts = (answer?.contracts ?? []).map(contractNodes)
  if (contracts.length === 0 && state.kind === 'answer' && answer?.pending)
    return [
      node(
        'BlockStack',
        {},
        heading,
        node('TextBlock', { appearance: 'subdued' }, 'お届け予定を確認しています…'),
        ...message,
      ),
    ]
  if (contracts.length === 0 && message.length === 0) return []
  const fallback =
    contracts.length === 0 && state.kind === 'gave-up'
      ? [node('TextBlock', { appearance: 'subdued' }, 'お届け予定は、ご注文確認メールでご確認ください。')]
      : []
  return [node('BlockStack', {}, heading, ...contracts, ...fallback, ...message)]
}

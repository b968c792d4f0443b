// The thank-you page block (checkout UI extensions 2025-04, target purchase.thank-you.block.render).
// It asks the app (GET /extensions/thank-you) with the checkout's session token for the order's
// subscriptions and the merchant's message, and shows them (view.ts). The app may not know the
// order's contracts yet when the page opens (the platform's webhook is on its way): it asks
// again a few times, then says where the buyer finds the dates.
import { BlockStack, extension, Heading, Text, TextBlock } from '@shopify/ui-extensions/checkout'
import { type Answer, type BlockState, blockView, type ViewNode } from './view.ts'

// The app's URL, built in by `shopify app deploy` (and by the local emulator) from TEIKI_APP_URL.
const APP_URL: string = process.env.TEIKI_APP_URL ?? ''
const RETRIES_MS = [1500, 3000, 5000, 8000]
const COMPONENTS = { BlockStack, Heading, Text, TextBlock }

export default extension('purchase.thank-you.block.render', (root, api) => {
  const build = (n: ViewNode | string): unknown =>
    typeof n === 'string'
      ? root.createText(n)
      : root.createComponent(COMPONENTS[n.type], n.props, n.children.map(build))

  const render = (state: BlockState) => {
    for (const child of [...root.children]) root.removeChild(child)
    for (const n of blockView(state)) root.appendChild(build(n))
  }

  async function ask(): Promise<Answer | null> {
    const order = api.orderConfirmation.current?.order?.id
    if (!order || !APP_URL) return null
    const token = await api.sessionToken.get()
    const res = await fetch(`${APP_URL}/extensions/thank-you?order=${encodeURIComponent(order)}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    return res.ok ? ((await res.json()) as Answer) : null
  }

  async function load(attempt: number): Promise<void> {
    const answer = await ask().catch(() => null)
    if (answer?.pending && attempt < RETRIES_MS.length) {
      render({ kind: 'answer', answer })
      setTimeout(() => void load(attempt + 1), RETRIES_MS[attempt])
      return
    }
    render(answer && !answer.pending ? { kind: 'answer', answer } : { kind: 'gave-up', answer })
  }

  render({ kind: 'loading' })
  void load(0)
})

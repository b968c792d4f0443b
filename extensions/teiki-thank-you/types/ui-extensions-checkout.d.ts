// The part of @shopify/ui-extensions 2025.4 (its `checkout` entry) this extension uses, for the
// repository's typecheck: the package itself is installed by Shopify CLI when it builds the
// extension, not by this workspace (as @shopify/shopify_function is for teiki-box-rules).
declare module '@shopify/ui-extensions/checkout' {
  type Component = string & { readonly __component?: unique symbol }
  export const BlockStack: Component
  export const Heading: Component
  export const Text: Component
  export const TextBlock: Component
  export type RemoteNode = unknown
  export type RemoteRoot = {
    readonly children: readonly RemoteNode[]
    createComponent(type: Component, props?: Record<string, unknown>, children?: unknown[]): RemoteNode
    createText(text: string): RemoteNode
    appendChild(child: unknown): void
    removeChild(child: unknown): void
  }
  export type ThankYouApi = {
    orderConfirmation: { current: { order: { id: string }; number?: string | null } | null }
    sessionToken: { get(): Promise<string> }
  }
  export function extension(
    target: 'purchase.thank-you.block.render',
    render: (root: RemoteRoot, api: ThankYouApi) => void,
  ): unknown
}

// The subset of the App Bridge global (`window.shopify`) the app uses. It exists only when
// the page is embedded in the store admin with the App Bridge script loaded.

/** A product as App Bridge's resource picker answers it (the fields the app reads). */
export type ResourcePickerProduct = {
  id: string
  title: string
  /** The variants picked (all of them when the whole product was). */
  variants: Array<{ id: string }>
  /** How many variants the product has. */
  totalVariants?: number
}

export type ResourcePickerOptions = {
  type: 'product'
  action?: 'add' | 'select'
  multiple?: boolean | number
  selectionIds?: Array<{ id: string; variants?: Array<{ id: string }> }>
  filter?: { variants?: boolean; draft?: boolean; archived?: boolean; hidden?: boolean }
}

declare global {
  interface Window {
    shopify?: {
      idToken?: () => Promise<string>
      /** Resolves with the picked products, or undefined when the merchant cancelled. */
      resourcePicker?: (options: ResourcePickerOptions) => Promise<ResourcePickerProduct[] | undefined>
      /** Where the admin runs: `mobile` inside the platform's mobile app. */
      environment?: { mobile?: boolean; embedded?: boolean; pos?: boolean }
    }
  }
}

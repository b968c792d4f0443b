// The subset of the App Bridge global (`window.shopify`) the app uses. It exists only when
// the page is embedded in the store admin with the App Bridge script loaded.
declare global {
  interface Window {
    shopify?: { idToken?: () => Promise<string> }
  }
}

export {}

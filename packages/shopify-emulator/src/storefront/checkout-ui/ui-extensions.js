// `@shopify/ui-extensions/checkout` as the emulator bundles it into the app's checkout UI
// extension: `extension(target, render)` hands the render function to the sandbox
// (worker-runtime.js), as the package's own `extension` hands it to the platform's
// `shopify.extend`; the components are their names, which the host renders (host.js).
/* global self */
export const extension = (target, render) => {
  self.__teikiCheckoutUi.register(target, render)
  return render
}
export const BlockStack = 'BlockStack'
export const InlineStack = 'InlineStack'
export const View = 'View'
export const Heading = 'Heading'
export const Text = 'Text'
export const TextBlock = 'TextBlock'
export const Banner = 'Banner'
export const Divider = 'Divider'

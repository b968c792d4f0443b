// `@shopify/web-pixels-extension` as the emulator bundles it into the app's pixel: its
// `register` is the package's own one line (Shopify/ui-extensions,
// packages/web-pixels-extension/src/register.ts), handing the callback to the sandbox's
// `shopify` global (sandbox.js) under the pixel's extension point.
/* global shopify */
export const register = (extend) => shopify.extend('WebPixel::Render', extend)

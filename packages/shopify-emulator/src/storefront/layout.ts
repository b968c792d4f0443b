/**
 * The emulated online store's theme around the app blocks: a plain page layout in Japanese
 * (header with the cart, main, a small stylesheet). Not a copy of any real theme: just enough
 * of one for the blocks to sit in a product form the way they do in Dawn.
 */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const THEME_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:'Noto Sans CJK JP','Hiragino Sans',system-ui,sans-serif;color:#1f1f1f;line-height:1.6;background:#fff}
a{color:#2a5db0}
.store-header{display:flex;justify-content:space-between;align-items:center;gap:0.5rem 1rem;flex-wrap:wrap;padding:0.75rem 1.5rem;border-bottom:1px solid #e5e5e5;min-height:56px;box-sizing:border-box}
.store-header__name{font-weight:700;text-decoration:none;color:inherit}
.store-main{max-width:1040px;margin:0 auto;padding:1.5rem}
.product{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:2rem}
@media (max-width:780px){.product{grid-template-columns:1fr}}
.product__media img{width:100%;height:auto;aspect-ratio:1/1;border-radius:12px;background:#f4f4f4}
.product__title{font-size:1.6rem;margin:0 0 0.25rem}
.product__price{font-size:1.25rem;margin:0 0 1rem}
.field{display:grid;gap:0.25rem;margin:0 0 0.75rem}
.field select,.field input{font:inherit;padding:0.5rem;border:1px solid #bbb;border-radius:6px}
.button{font:inherit;background:#1f1f1f;color:#fff;border:0;border-radius:6px;padding:0.75rem 1.25rem;cursor:pointer;width:100%}
.button[disabled]{opacity:0.4;cursor:not-allowed}
.store-header__links{display:flex;gap:1rem;flex-wrap:wrap;white-space:nowrap}
@media (max-width:480px){.store-header{padding:0.75rem 1rem}}
.notice{border:1px dashed #c9a227;background:#fff9e6;border-radius:8px;padding:0.75rem 1rem;font-size:0.9rem}
.checkout-ui-block:not(:empty){border:1px solid #d9d9d9;border-radius:8px;padding:1rem;margin:1rem 0}
.cu-stack{display:flex;flex-direction:column;gap:0.75rem}.cu-stack.cu-gap-extraTight{gap:0.2rem}
.cu-inline{display:flex;flex-wrap:wrap;gap:0.75rem}.cu-heading{font-size:1.1rem;margin:0}
.cu-text{margin:0}.cu-bold{font-weight:600}.cu-subdued{color:#666}.cu-small{font-size:0.875rem}
.table{width:100%;border-collapse:collapse;margin:1rem 0}
.table th,.table td{border-bottom:1px solid #e5e5e5;padding:0.5rem;text-align:left;vertical-align:top}
.table td.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:#666;font-size:0.9rem}
.error{color:#b00020}
`

export function storePage(opts: {
  title: string
  shopName: string
  base: string
  cartCount: number
  /** A customer is signed in: the header links マイページ and ログアウト, else ログイン. */
  signedIn?: boolean
  body: string
  stylesheets?: string[]
  scripts?: string[]
  /** More of the head, as the platform adds it (the web pixels manager: web-pixels.ts). */
  head?: string
}): string {
  const css = (opts.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
  const js = (opts.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>`)
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} – ${escapeHtml(opts.shopName)}</title>
<style>${THEME_CSS}</style>
${css.join('\n')}
${js.join('\n')}
${opts.head ?? ''}
</head><body>
<header class="store-header">
  <a class="store-header__name" href="${escapeHtml(opts.base)}/">${escapeHtml(opts.shopName)}</a>
  <nav class="store-header__links">${
    opts.signedIn
      ? `<a href="${escapeHtml(opts.base)}/apps/teiki/my-page">マイページ</a><a href="${escapeHtml(opts.base)}/account/logout">ログアウト</a>`
      : `<a href="${escapeHtml(opts.base)}/account/login">ログイン</a>`
  }<a href="${escapeHtml(opts.base)}/cart">カート（${opts.cartCount}）</a></nav>
</header>
<main class="store-main">
${opts.body}
</main>
</body></html>`
}

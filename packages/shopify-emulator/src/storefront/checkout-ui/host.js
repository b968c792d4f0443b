// The emulated thank-you page's part of a checkout UI extension: starts the extension's sandbox
// (a Web Worker: worker-runtime.js and the extension's bundle), gives it the target's setup
// (#checkout-ui-setup, written by the server: checkout-ui.ts) and draws the component tree it
// posts into the block's place, with the platform's components as plain elements.
;(() => {
  const tag = document.getElementById('checkout-ui-setup')
  if (!tag || typeof Worker === 'undefined') return
  const setup = JSON.parse(tag.textContent)
  const mount = document.getElementById(setup.mountId)
  if (!mount) return

  const element = (name, className) => {
    const e = document.createElement(name)
    e.className = className
    return e
  }
  const textClasses = (p) =>
    [
      'cu-text',
      p.emphasis ? `cu-${p.emphasis}` : '',
      p.appearance ? `cu-${p.appearance}` : '',
      p.size ? `cu-${p.size}` : '',
    ]
      .filter(Boolean)
      .join(' ')
  const RENDER = {
    BlockStack: (p) => element('div', `cu-stack cu-gap-${p.spacing ?? 'base'}`),
    InlineStack: (p) => element('div', `cu-inline cu-gap-${p.spacing ?? 'base'}`),
    View: () => element('div', 'cu-view'),
    Heading: (p) => element(`h${Math.min(Math.max(Number(p.level) || 2, 1), 3) + 1}`, 'cu-heading'),
    TextBlock: (p) => element('p', textClasses(p)),
    Text: (p) => element('span', textClasses(p)),
    Banner: () => element('div', 'cu-banner'),
    Divider: () => element('hr', 'cu-divider'),
  }
  const draw = (node) => {
    if (typeof node === 'string') return document.createTextNode(node)
    const e = (RENDER[node.type] ?? RENDER.View)(node.props ?? {})
    for (const child of node.children ?? []) e.appendChild(draw(child))
    return e
  }

  const worker = new Worker(setup.workerUrl)
  worker.onmessage = (event) => {
    if (event.data?.type !== 'tree') return
    mount.replaceChildren(...event.data.tree.map(draw))
    mount.dataset.rendered = String(Number(mount.dataset.rendered ?? 0) + 1)
  }
  worker.postMessage({ type: 'init', setup })
})()

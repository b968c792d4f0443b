// The emulated checkout's sandbox for the app's UI extension: a Web Worker, as on the platform
// (the extension has no DOM; it builds a tree of remote components). This runtime gives the
// render function the `root` (createComponent, createText, appendChild, removeChild,
// insertChildBefore; components' updateProps) and the target's API (orderConfirmation,
// sessionToken, shop, extension), and posts the whole tree to the page after each batch of
// changes (host.js draws it). Without the `network_access` capability, fetch is refused.
/* global self */
;(() => {
  let registered = null
  self.__teikiCheckoutUi = {
    register(target, render) {
      registered = { target, render }
    },
  }
  const platformFetch = self.fetch.bind(self)
  let nextId = 1
  let scheduled = false
  const serialize = (n) =>
    n.kind === 'text'
      ? n.text
      : {
          type: n.type,
          props: JSON.parse(JSON.stringify(n.props, (_k, v) => (typeof v === 'function' ? undefined : v))),
          children: n.children.map(serialize),
        }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    queueMicrotask(() => {
      scheduled = false
      self.postMessage({ type: 'tree', tree: root.children.map(serialize) })
    })
  }
  const detach = (child) => {
    if (child.parent) child.parent.removeChild(child)
  }
  function parent(node) {
    node.children = []
    node.appendChild = (child) => {
      detach(child)
      node.children.push(child)
      child.parent = node
      schedule()
    }
    node.insertChildBefore = (child, before) => {
      detach(child)
      const at = node.children.indexOf(before)
      node.children.splice(at < 0 ? node.children.length : at, 0, child)
      child.parent = node
      schedule()
    }
    node.removeChild = (child) => {
      const at = node.children.indexOf(child)
      if (at >= 0) node.children.splice(at, 1)
      child.parent = null
      schedule()
    }
    return node
  }
  const root = parent({
    kind: 'root',
    createComponent(type, props = {}, children = []) {
      const c = parent({ kind: 'component', id: nextId++, type, props: { ...props } })
      c.updateProps = (next) => {
        Object.assign(c.props, next)
        schedule()
      }
      for (const child of [].concat(children))
        c.appendChild(typeof child === 'string' ? root.createText(child) : child)
      return c
    },
    createText(text) {
      const t = { kind: 'text', id: nextId++, text: String(text) }
      t.update = (value) => {
        t.text = String(value)
        schedule()
      }
      return t
    },
    mount: () => Promise.resolve(),
  })

  self.onmessage = (event) => {
    const message = event.data
    if (message?.type !== 'init' || !registered) return
    const { setup } = message
    if (registered.target !== setup.target) return
    if (!setup.networkAccess)
      self.fetch = () => Promise.reject(new TypeError('network_access is not enabled for this extension'))
    const subscribable = (current) => ({ current, subscribe: () => () => {} })
    let token = null
    const api = {
      extension: { target: setup.target, apiVersion: setup.apiVersion },
      shop: setup.shop,
      orderConfirmation: subscribable(setup.orderConfirmation),
      sessionToken: {
        // Cached until a minute before it expires, as the platform's is.
        async get() {
          if (token && token.until > Date.now()) return token.value
          const res = await platformFetch(setup.tokenUrl, { credentials: 'same-origin' })
          if (!res.ok) throw new Error(`session token: ${res.status}`)
          token = { value: await res.text(), until: Date.now() + 4 * 60_000 }
          return token.value
        },
      },
    }
    registered.render(root, api)
  }
})()

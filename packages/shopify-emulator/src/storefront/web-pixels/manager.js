// The emulated platform's web pixels manager in the store's top frame: starts the app's pixel in
// its sandbox (a Web Worker running sandbox.js and the extension's bundle), gives it the
// settings the app created with webPixelCreate and the page's init snapshot, publishes the
// page's standard events (page_viewed on every page, checkout_completed once on the thank-you
// page) with the platform's event shape, and runs the pixel's `browser.*` calls here.
// The page's server-side part comes in `#web-pixels-manager-setup` (web-pixels.ts).
;(() => {
  const setupTag = document.getElementById('web-pixels-manager-setup')
  if (!setupTag || typeof Worker === 'undefined') return
  const setup = JSON.parse(setupTag.textContent)

  // The platform's visitor id: the `_shopify_y` cookie, made on the first page of a browser.
  const CLIENT_COOKIE = '_shopify_y'
  const cookieValue = (name) => {
    for (const part of document.cookie.split(';')) {
      const at = part.indexOf('=')
      if (part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1))
    }
    return null
  }
  let clientId = cookieValue(CLIENT_COOKIE)
  if (!clientId || !/^[A-Za-z0-9_.:-]{1,64}$/.test(clientId)) {
    clientId = crypto.randomUUID()
    // biome-ignore lint/suspicious/noDocumentCookie: the platform keeps its visitor id in a plain cookie
    document.cookie = `${CLIENT_COOKIE}=${clientId}; path=/; max-age=31536000; SameSite=Lax`
  }

  const locationOf = (l) => ({
    hash: l.hash,
    host: l.host,
    hostname: l.hostname,
    href: l.href,
    origin: l.origin,
    pathname: l.pathname,
    port: l.port,
    protocol: l.protocol,
    search: l.search,
  })
  const context = () => ({
    document: {
      characterSet: document.characterSet,
      location: locationOf(document.location),
      referrer: document.referrer,
      title: document.title,
    },
    navigator: {
      cookieEnabled: navigator.cookieEnabled,
      language: navigator.language,
      languages: [...navigator.languages],
      userAgent: navigator.userAgent,
    },
    window: {
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
      location: locationOf(window.location),
      origin: window.origin,
      outerHeight: window.outerHeight,
      outerWidth: window.outerWidth,
      pageXOffset: window.pageXOffset,
      pageYOffset: window.pageYOffset,
      screenX: window.screenX,
      screenY: window.screenY,
      scrollX: window.scrollX,
      scrollY: window.scrollY,
    },
  })

  const storageCall = (area, op, args) => {
    const store = window[area]
    if (op === 'length') return store.length
    if (op === 'clear') return store.clear()
    return store[op](...args)
  }
  const browserCall = (method, args) => {
    if (method === 'sendBeacon') return navigator.sendBeacon(args[0], args[1] ?? undefined)
    if (method === 'cookie.get') return args[0] === null ? document.cookie : (cookieValue(args[0]) ?? '')
    if (method === 'cookie.set') {
      // biome-ignore lint/suspicious/noDocumentCookie: browser.cookie.set is document.cookie in the top frame
      document.cookie = args[1] === null ? args[0] : `${args[0]}=${args[1]}`
      return document.cookie
    }
    const [area, op] = method.split('.')
    if ((area === 'localStorage' || area === 'sessionStorage') && op) return storageCall(area, op, args)
    throw new Error(`unknown browser call ${method}`)
  }

  const worker = new Worker(setup.sandboxUrl, { name: `web-pixel-${setup.pixel.id}` })
  worker.onmessage = (message) => {
    const data = message.data
    if (data.type !== 'call') return
    let answer
    try {
      answer = { type: 'result', id: data.id, value: browserCall(data.method, data.args) }
    } catch (error) {
      answer = { type: 'result', id: data.id, error: String(error?.message ?? error) }
    }
    worker.postMessage(answer)
  }
  worker.postMessage({
    type: 'init',
    settings: setup.pixel.settings,
    init: { context: context(), data: setup.init, customerPrivacy: setup.customerPrivacy },
    pixelInfo: { id: setup.pixel.id, type: 'APP', runtimeContext: setup.pixel.runtimeContext },
  })
  let seq = 0
  for (const event of setup.events) {
    seq += 1
    worker.postMessage({
      type: 'event',
      event: {
        id: `sh-${crypto.randomUUID()}`,
        name: event.name,
        type: 'standard',
        seq,
        timestamp: new Date().toISOString(),
        clientId,
        context: context(),
        data: event.data,
      },
    })
  }
})()

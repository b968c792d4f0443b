// The emulated platform's strict sandbox for one app web pixel: a dedicated Web Worker (no DOM,
// no top-frame globals), as the platform runs app pixels. The extension's bundle is appended
// below this runtime by the emulator (web-pixels.ts), wrapped as `(function (shopify) {…})`,
// so its `register` (from @shopify/web-pixels-extension) reaches `shopify.extend`. The top
// frame (manager.js) sends `init` (the settings the app created with webPixelCreate, and the
// page's init snapshot), then the standard events of the page; the pixel's `browser.*` calls
// run in the top frame and answer asynchronously, as on the platform.
;(() => {
  const EXTENSION_POINT = 'WebPixel::Render'
  const subscribers = []
  const waiting = new Map()
  const early = []
  let nextCall = 0
  let render = null
  let started = false

  const call = (method, args) =>
    new Promise((resolve, reject) => {
      nextCall += 1
      waiting.set(nextCall, { resolve, reject })
      self.postMessage({ type: 'call', id: nextCall, method, args })
    })

  const storage = (area) => ({
    getItem: (key) => call(`${area}.getItem`, [String(key)]),
    setItem: (key, value) => call(`${area}.setItem`, [String(key), String(value)]),
    removeItem: (key) => call(`${area}.removeItem`, [String(key)]),
    key: (index) => call(`${area}.key`, [Number(index)]),
    length: () => call(`${area}.length`, []),
    clear: () => call(`${area}.clear`, []),
  })

  const browser = Object.freeze({
    cookie: Object.freeze({
      get: (name) => call('cookie.get', [name === undefined ? null : String(name)]),
      set: (cookieOrName, value) =>
        call('cookie.set', [String(cookieOrName), value === undefined ? null : String(value)]),
    }),
    sendBeacon: (url, body) => call('sendBeacon', [String(url), body === undefined ? null : String(body)]),
    localStorage: Object.freeze(storage('localStorage')),
    sessionStorage: Object.freeze(storage('sessionStorage')),
  })

  const matches = (channel, event) =>
    channel === event.name ||
    channel === 'all_events' ||
    (channel === 'all_standard_events' && event.type === 'standard') ||
    (channel === 'all_custom_events' && event.type === 'custom')

  const analytics = Object.freeze({
    subscribe(channel, callback) {
      const entry = { channel: String(channel), callback }
      subscribers.push(entry)
      return () => {
        const at = subscribers.indexOf(entry)
        if (at >= 0) subscribers.splice(at, 1)
        return at >= 0
      }
    },
  })

  const deliver = (event) => {
    for (const s of subscribers.slice()) {
      if (!matches(s.channel, event)) continue
      try {
        s.callback(structuredClone(event))
      } catch (error) {
        console.error('[web-pixel] subscriber failed', error)
      }
    }
  }

  self.onmessage = (message) => {
    const data = message.data
    if (data.type === 'result') {
      const pending = waiting.get(data.id)
      waiting.delete(data.id)
      if (pending) data.error ? pending.reject(new Error(data.error)) : pending.resolve(data.value)
    } else if (data.type === 'init') {
      started = true
      if (render) {
        try {
          render({
            analytics,
            browser,
            init: data.init,
            settings: data.settings,
            _pixelInfo: data.pixelInfo,
          })
        } catch (error) {
          console.error('[web-pixel] register callback failed', error)
        }
      }
      for (const event of early.splice(0)) deliver(event)
    } else if (data.type === 'event') {
      if (started) deliver(data.event)
      else early.push(data.event)
    }
  }

  self.__teikiWebPixelShopify = Object.freeze({
    extend(point, callback) {
      if (point !== EXTENSION_POINT) throw new Error(`Unknown extension point: ${point}`)
      if (typeof callback !== 'function') throw new Error('extend needs a callback')
      render = callback
    },
  })
})()

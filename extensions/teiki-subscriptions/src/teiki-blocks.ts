// Teiki storefront blocks, built into ../assets/teiki-blocks.js by `npm run build:extensions`
// (esbuild, ES2020; the asset is committed, as Shopify CLI deploys assets as they are, and
// apps/server/test/extension-build.test.ts fails when it is not the build of this file).
// Plans: keeps the radios on the theme's product form and shows the selected variant's prices.
// Delivery: お届け希望日 (the deliverable dates of 配送設定, computed here from the app-data
// metafield the page carries: no request before first paint) and 配送時間帯, as cart attributes.
// Box: enforces the minimum and maximum, then adds the chosen products with the plan at once
// (the cart and checkout hold them to the same rule: extensions/teiki-box-rules).
import {
  DEFAULT_DELIVERY_SETTINGS,
  type DeliverySettings,
  deliverableDates,
} from '../../../packages/domain/src/delivery/calendar.ts'
import { CARRIERS } from '../../../packages/domain/src/delivery/carriers.ts'
import {
  DELIVERY_DATE_ATTRIBUTE,
  DELIVERY_TIME_ATTRIBUTE,
  DELIVERY_TIME_LABELS,
} from '../../../packages/domain/src/subscriptions/delivery.ts'

const $$ = <T extends Element = HTMLElement>(root: ParentNode, sel: string): T[] =>
  Array.prototype.slice.call(root.querySelectorAll(sel))

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土']

/** 2026-12-03 → 12月3日（木）. */
export function dateLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]
  return `${m}月${d}日（${weekday}）`
}

/** The settings the page carries (the metafield's JSON), or the defaults when it has none. */
export function settingsOf(text: string | null | undefined): DeliverySettings {
  try {
    const parsed = text ? (JSON.parse(text) as Partial<DeliverySettings> | null) : null
    return parsed && typeof parsed === 'object'
      ? { ...DEFAULT_DELIVERY_SETTINGS, ...parsed }
      : DEFAULT_DELIVERY_SETTINGS
  } catch {
    return DEFAULT_DELIVERY_SETTINGS
  }
}

function delivery(root: HTMLElement, form: HTMLFormElement | null, planChosen: () => boolean): void {
  const dates = root.querySelector<HTMLSelectElement>('[data-teiki-date]')
  const slot = root.querySelector<HTMLSelectElement>('[data-teiki-slot]')
  const message = root.querySelector<HTMLElement>('[data-teiki-delivery-message]')
  if (!dates || !slot) return
  const settings = settingsOf(root.querySelector('script[type="application/json"]')?.textContent)
  for (const date of deliverableDates(settings, null, new Date())) {
    dates.add(new Option(dateLabel(date), date))
  }
  // A shop that never saved 配送設定 has no metafield: the default carrier's slots.
  if (slot.options.length <= 1) {
    for (const s of (CARRIERS[settings.carrier] ?? CARRIERS.yamato).slots) {
      slot.add(new Option(DELIVERY_TIME_LABELS[s.slot], DELIVERY_TIME_LABELS[s.slot]))
    }
  }
  const endpoint = `${(form?.getAttribute('action') ?? '/cart/add').replace(/\/add$/, '')}/update.js`
  const save = () => {
    const on = planChosen()
    const attributes = {
      [DELIVERY_DATE_ATTRIBUTE]: on ? dates.value : '',
      [DELIVERY_TIME_ATTRIBUTE]: on ? slot.value : '',
    }
    if (message) message.textContent = ''
    fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ attributes }),
    })
      .then((res) => {
        if (!res.ok) throw new Error(String(res.status))
        root.dataset.saved = `${attributes[DELIVERY_DATE_ATTRIBUTE]}|${attributes[DELIVERY_TIME_ATTRIBUTE]}`
      })
      .catch(() => {
        if (message) message.textContent = root.dataset.error ?? ''
      })
  }
  dates.addEventListener('change', save)
  slot.addEventListener('change', save)
  root.dataset.ready = 'true'
}

function plans(root: HTMLElement): void {
  const section = root.closest('.shopify-section') ?? document
  let form = document.getElementById(root.dataset.form ?? '') as HTMLFormElement | null
  if (!form) {
    form = section.querySelector<HTMLFormElement>('form[action*="/cart/add"]')
    if (form) {
      if (!form.id) form.id = root.dataset.form ?? ''
      for (const input of $$(root, 'input[name="selling_plan"]')) input.setAttribute('form', form.id)
    }
  }
  const picker = root.parentElement?.querySelector<HTMLElement>('[data-teiki-delivery]') ?? null
  const chosenPlan = () =>
    Boolean($$<HTMLInputElement>(root, 'input[name="selling_plan"]').find((i) => i.checked)?.value)
  if (picker) delivery(picker, form, chosenPlan)
  if (!form) return
  const show = () => {
    const id = form.querySelector<HTMLInputElement>('[name="id"]')
    if (id) for (const el of $$(root, '[data-variant]')) el.hidden = el.dataset.variant !== id.value
    // The dates and slots are for subscriptions: hidden (and cleared) for a one-time purchase.
    if (picker) {
      const was = picker.hidden
      picker.hidden = !chosenPlan()
      if (picker.hidden && !was) picker.querySelector('select')?.dispatchEvent(new Event('change'))
    }
  }
  // Themes set the variant id on their own change handlers: read it once they ran.
  section.addEventListener('change', () => setTimeout(show))
  show()
}

function box(form: HTMLFormElement): void {
  const min = Number(form.dataset.min)
  const max = Number(form.dataset.max)
  const count = form.querySelector<HTMLElement>('.teiki-box__count')!
  const message = form.querySelector<HTMLElement>('.teiki-box__message')!
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const picked = () => $$<HTMLInputElement>(form, 'input[name="items"]:checked')
  const plan = () => form.querySelector<HTMLInputElement>('input[name="selling_plan"]:checked')
  const update = () => {
    const n = picked().length
    count.textContent = (count.dataset.template ?? '').replace('%n', String(n))
    submit.disabled = n < min || n > max
    for (const item of $$<HTMLInputElement>(form, 'input[name="items"]'))
      item.disabled = !item.checked && n >= max
    const id = plan()?.value
    for (const el of $$(form, '[data-plan]')) el.hidden = el.dataset.plan !== id
  }
  form.addEventListener('change', update)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    submit.disabled = true
    message.textContent = ''
    const items = picked().map((input) => ({
      id: Number(input.value),
      quantity: 1,
      selling_plan: plan() ? Number(plan()!.value) : undefined,
      // `_box_id` tells the box rules function (extensions/teiki-box-rules) whose rule applies.
      properties: { _box: form.dataset.box, _box_id: form.dataset.boxId },
    }))
    fetch(`${form.getAttribute('action')}.js`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ items }),
    })
      .then(async (res) => {
        if (res.ok) {
          window.location.href = form.dataset.cart ?? '/cart'
          return
        }
        // A refusal the shopper can act on (the box rules at the cart: 「…」は3個以上お選びください)
        // is the Ajax API's 422 description; anything else reads as the block's own message.
        const body = (await res.json().catch(() => null)) as { description?: unknown } | null
        message.textContent =
          res.status === 422 && typeof body?.description === 'string'
            ? body.description
            : (form.dataset.error ?? '')
        update()
      })
      .catch(() => {
        message.textContent = form.dataset.error ?? ''
        update()
      })
  })
  update()
}

if (typeof document !== 'undefined') {
  for (const root of $$(document, '[data-teiki-plans]')) plans(root)
  for (const form of $$<HTMLFormElement>(document, '[data-teiki-box]')) box(form)
}

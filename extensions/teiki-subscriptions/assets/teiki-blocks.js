// Teiki storefront blocks (plain ES2020, no build step, loaded deferred by the block schema).
// Plans: keeps the radios on the theme's product form and shows the selected variant's prices.
// Box: enforces the minimum and maximum, then adds the chosen products with the plan at once.
;(() => {
  const $$ = (root, sel) => Array.prototype.slice.call(root.querySelectorAll(sel))

  function plans(root) {
    const section = root.closest('.shopify-section') || document
    let form = document.getElementById(root.dataset.form)
    if (!form) {
      form = section.querySelector('form[action*="/cart/add"]')
      if (!form) return
      if (!form.id) form.id = root.dataset.form
      for (const input of $$(root, 'input[name="selling_plan"]')) input.setAttribute('form', form.id)
    }
    const show = () => {
      const id = form.querySelector('[name="id"]')
      if (!id) return
      for (const el of $$(root, '[data-variant]')) el.hidden = el.dataset.variant !== id.value
    }
    // Themes set the variant id on their own change handlers: read it once they ran.
    section.addEventListener('change', () => setTimeout(show))
    show()
  }

  function box(form) {
    const min = Number(form.dataset.min)
    const max = Number(form.dataset.max)
    const count = form.querySelector('.teiki-box__count')
    const message = form.querySelector('.teiki-box__message')
    const submit = form.querySelector('button[type="submit"]')
    const picked = () => $$(form, 'input[name="items"]:checked')
    const plan = () => form.querySelector('input[name="selling_plan"]:checked')
    const update = () => {
      const n = picked().length
      count.textContent = count.dataset.template.replace('%n', n)
      submit.disabled = n < min || n > max
      for (const box of $$(form, 'input[name="items"]')) box.disabled = !box.checked && n >= max
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
        selling_plan: plan() ? Number(plan().value) : undefined,
        properties: { _box: form.dataset.box },
      }))
      fetch(`${form.getAttribute('action')}.js`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ items }),
      })
        .then((res) => {
          if (!res.ok) throw new Error(String(res.status))
          window.location.href = form.dataset.cart
        })
        .catch(() => {
          message.textContent = form.dataset.error
          update()
        })
    })
    update()
  }

  for (const root of $$(document, '[data-teiki-plans]')) plans(root)
  for (const form of $$(document, '[data-teiki-box]')) box(form)
})()

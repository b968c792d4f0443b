/**
 * What a shopper reads in an HTML fragment: the text of every element that neither has the
 * `hidden` attribute nor sits inside one that has, whitespace collapsed. Enough HTML for the
 * blocks' markup (void elements, attributes with quoted values, no scripts).
 */
const VOID = new Set(['input', 'img', 'br', 'hr', 'meta', 'link', 'source'])

export function visibleText(html: string): string {
  const out: string[] = []
  const stack: boolean[] = [] // per open element: hidden (itself or an ancestor)
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g
  let last = 0
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const hidden = stack.at(-1) ?? false
    if (!hidden) out.push(html.slice(last, m.index))
    last = tag.lastIndex
    const [, closing, name, attrs] = m
    const lower = name!.toLowerCase()
    if (closing) stack.pop()
    else if (!VOID.has(lower)) stack.push(hidden || /\shidden(\s|=|$)/.test(attrs ?? ''))
    out.push(' ')
  }
  out.push(html.slice(last))
  return out
    .join('')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The blocks of `html` that match `open` up to their closing `</tag>` (no nesting of the same tag). */
export function elements(html: string, tagName: string, className: string): string[] {
  const re = new RegExp(`<${tagName}[^>]*class="${className}"[^>]*>[\\s\\S]*?</${tagName}>`, 'g')
  return html.match(re) ?? []
}

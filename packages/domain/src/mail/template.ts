import { formatMailValue, type MailValues } from './values.ts'
import {
  MAIL_VARIABLES,
  type MailTemplateType,
  type MailVariableName,
  TEMPLATE_VARIABLES,
} from './variables.ts'

/** What the merchant edits: the subject line, the body and the signature appended to it. */
export type MailTemplate = { title: string; body: string; signature: string }

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'var'; name: string }
  | { kind: 'section'; name: string; inverted: boolean; children: Node[] }

const TAG = /\{\{([^{}]*)\}\}/g
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/
// A section tag alone on its line takes the line with it (as in Mustache), so a template can
// put `{{#retryDate}}` on a line of its own without leaving a blank line behind.
const STANDALONE = /^[ \t]*(\{\{\s*[#^/]\s*[A-Za-z][A-Za-z0-9_]*\s*\}\})[ \t]*\r?\n/gm

type Parsed = { nodes: Node[]; problems: string[] }

function parse(source: string, field: string): Parsed {
  const text = source.replace(STANDALONE, '$1')
  const root: Node[] = []
  const stack: Array<{ name: string; children: Node[] }> = []
  const problems: string[] = []
  let current = root
  let last = 0
  for (const match of text.matchAll(TAG)) {
    if (match.index > last) current.push({ kind: 'text', text: text.slice(last, match.index) })
    last = match.index + match[0].length
    const inner = match[1]!.trim()
    const sigil = /^[#^/]/.test(inner) ? inner[0]! : ''
    const name = inner.slice(sigil.length).trim()
    if (!NAME.test(name)) {
      problems.push(
        `${field}の変数の書き方が正しくありません: ${match[0]}（{{変数名}} の形で書いてください）`,
      )
      continue
    }
    if (sigil === '#' || sigil === '^') {
      const section: Node = { kind: 'section', name, inverted: sigil === '^', children: [] }
      current.push(section)
      stack.push({ name, children: current })
      current = section.children
    } else if (sigil === '/') {
      const open = stack.pop()
      if (open?.name !== name) {
        problems.push(`${field}の {{/${name}}} に対応する {{#${name}}} がありません`)
        if (open) stack.push(open)
        continue
      }
      current = open.children
    } else {
      current.push({ kind: 'var', name })
    }
  }
  if (last < text.length) current.push({ kind: 'text', text: text.slice(last) })
  for (const open of stack)
    problems.push(`${field}の {{#${open.name}}} が {{/${open.name}}} で閉じられていません`)
  return { nodes: root, problems }
}

// A placeholder left open (`{{customerName`, `{{ amount }`) or a closing with no opening
// (`amount}}`): the parser above reads both as text, which would reach the customer as written.
const OPEN_FRAGMENT = /^\{\{[ \t]*[#^/]?[ \t]*[A-Za-z0-9_]*[ \t]*\}?/
const CLOSE_FRAGMENT = /\{?[ \t]*[#^/]?[ \t]*[A-Za-z0-9_]*[ \t]*$/

/**
 * Every `{{` and `}}` of `source` that is not part of a whole tag, with the line it is on (for
 * fields of several lines) and the fragment as the merchant wrote it:
 * `件名の {{customerName は閉じられていません`, `本文の3行目の {{ amount } は閉じられていません`.
 */
function strayBraceProblems(source: string, field: string, multiline: boolean): string[] {
  // Whole tags blanked out, offsets kept, so what is left of `{{` and `}}` is stray.
  const stray = source.replace(TAG, (tag) => ' '.repeat(tag.length))
  const problems: string[] = []
  for (const m of stray.matchAll(/\{\{|\}\}/g)) {
    const lineStart = source.lastIndexOf('\n', m.index) + 1
    const where = multiline ? `${source.slice(0, m.index).split('\n').length}行目の ` : ' '
    if (m[0] === '{{') {
      const fragment = OPEN_FRAGMENT.exec(source.slice(m.index))![0].trimEnd()
      problems.push(`${field}の${where}${fragment} は閉じられていません（{{変数名}} の形で書いてください）`)
    } else {
      const before = CLOSE_FRAGMENT.exec(source.slice(lineStart, m.index))![0].trimStart()
      problems.push(
        `${field}の${where}${before}}} に対応する {{ がありません（{{変数名}} の形で書いてください）`,
      )
    }
  }
  return problems
}

function names(nodes: Node[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.kind === 'var') into.add(node.name)
    if (node.kind === 'section') {
      into.add(node.name)
      names(node.children, into)
    }
  }
  return into
}

const FIELDS: Array<[keyof MailTemplate, string, boolean]> = [
  ['title', '件名', false],
  ['body', '本文', true],
  ['signature', '署名', true],
]

/**
 * Why the template cannot be saved for this mail (Japanese, one message per problem), empty
 * when it can: an unknown variable is named with the variables this mail offers, so the
 * merchant sees what to write instead (`本文の {{customerNmae}} は使えない変数です。…`).
 */
export function mailTemplateProblems(type: MailTemplateType, template: MailTemplate): string[] {
  const allowed = TEMPLATE_VARIABLES[type]
  const problems: string[] = []
  for (const [key, field, multiline] of FIELDS) {
    const parsed = parse(template[key], field)
    problems.push(...strayBraceProblems(template[key], field, multiline), ...parsed.problems)
    for (const name of names(parsed.nodes)) {
      if (!(allowed as readonly string[]).includes(name)) {
        const list = allowed.map((n) => `{{${n}}}`).join('、')
        problems.push(`${field}の {{${name}}} は使えない変数です。このメールで使える変数: ${list}`)
      }
    }
  }
  return problems
}

function renderNodes(nodes: Node[], value: (name: string) => string | null): string {
  let out = ''
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text
    else if (node.kind === 'var') out += value(node.name) ?? ''
    else if ((value(node.name) !== null) !== node.inverted) out += renderNodes(node.children, value)
  }
  return out
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

export type RenderedMail = { subject: string; text: string; html: string }

/**
 * The mail a template makes with these values: the subject on one line, the body with the
 * signature after a blank line, and the same as HTML with every character of the text (the
 * merchant's and the values alike) escaped and line breaks as `<br>`. Throws on a template with
 * problems (templates are checked when saved, so only a broken stored one could).
 */
export function renderMailTemplate(
  type: MailTemplateType,
  template: MailTemplate,
  values: MailValues,
  timeZone: string,
): RenderedMail {
  const problems = mailTemplateProblems(type, template)
  if (problems.length > 0) throw new Error(problems.join(' / '))
  const value = (name: string) =>
    name in MAIL_VARIABLES ? formatMailValue(name as MailVariableName, values, timeZone) : null
  const render = (source: string, field: string) => renderNodes(parse(source, field).nodes, value)
  const subject = render(template.title, '件名')
    .replace(/\s*\r?\n\s*/g, ' ')
    .trim()
  const body = render(template.body, '本文').replace(/\r\n/g, '\n')
  const signature = render(template.signature, '署名').replace(/\r\n/g, '\n').trim()
  const text = `${[body.trimEnd(), signature].filter((part) => part !== '').join('\n\n')}\n`
    // A section left out leaves no run of blank lines behind.
    .replace(/\n{3,}/g, '\n\n')
  const html = `<!doctype html><html lang="ja"><body><div style="white-space:normal">${escapeHtml(text.trimEnd()).replace(/\n/g, '<br>\n')}</div></body></html>`
  return { subject, text, html }
}

import type { WidgetMethod } from '@teiki/contract'
import type { AppBlockSupport } from '@teiki/domain'

const TEMPLATE_LABEL: Record<string, string> = {
  product: '商品ページ',
  collection: 'コレクションページ',
  index: 'トップページ',
}

/** What the merchant reads about a template's app-block support: the verdict and what to do. */
export function supportMessage(template: string, verdict: AppBlockSupport, section: string | null): string {
  const page = TEMPLATE_LABEL[template.split('.')[0]!] ?? `${template} テンプレート`
  if (verdict.supported) return `このテーマの${page}はアプリブロックに対応しています。`
  switch (verdict.reason) {
    case 'NOT_JSON_TEMPLATE':
      return `このテーマの${page}はJSONテンプレートではないため（Online Store 2.0 以前のテーマ）、アプリブロックを追加できません。Online Store 2.0 のテーマをお使いください。`
    case 'NO_MAIN_SECTION':
      return `このテーマの${page}にはメインセクションがないため、アプリブロックを追加できません。テーマエディタでアプリのセクションとして追加してください。`
    case 'NO_APP_BLOCKS':
      return section === null
        ? `このテーマの${page}のメインセクションのファイルが見つからないため、アプリブロックを追加できません。`
        : `このテーマの${page}のメインセクションはアプリブロックを受け付けません。テーマエディタでアプリのセクションとして追加してください。`
  }
}

const NO_THEME_FILE_ACCESS =
  'Shopify がこのアプリにテーマファイルの書き込みを許可していないため（一部のアプリだけに認められる特別な許可です）'

/** Which way ウィジェットを追加 takes for this shop, and why. */
export function widgetMethodMessage(method: WidgetMethod, hasEditorLink: boolean): string {
  if (method === 'themeFiles') {
    return '「ウィジェットを追加」を押すと、アプリが商品ページのテンプレートにウィジェットを書き込みます。Shopify がテーマファイルの書き込みを許可していない場合は、代わりにテーマエディタを開きます。'
  }
  return hasEditorLink
    ? `${NO_THEME_FILE_ACCESS}、「ウィジェットを追加」を押すとテーマエディタが開きます。ウィジェットが商品ページに置かれた状態で開くので、テーマエディタで「保存」を押し、ここで「追加を確認」を押してください。`
    : `${NO_THEME_FILE_ACCESS}、テーマエディタの商品ページで「ブロックを追加」から Teiki のウィジェットを追加してください。`
}

/** PUT /add-theme-section refused: a section's own file can only be written with theme-file access. */
export const SECTION_DENIED = `${NO_THEME_FILE_ACCESS}、セクションのファイルを追加できません。テーマエディタの「セクションを追加」から Teiki のアプリブロックを追加してください。`

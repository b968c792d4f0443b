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

import {
  CalendarTimeIcon,
  CashYenIcon,
  ChartCohortIcon,
  ChartVerticalIcon,
  DeliveryIcon,
  DiscountIcon,
  EditIcon,
  EmailIcon,
  OrderRepeatIcon,
  PackageIcon,
  PersonSegmentIcon,
  PlanIcon,
  SettingsIcon,
  StoreOnlineIcon,
  TargetIcon,
  XCircleIcon,
} from '@shopify/polaris-icons'

/** Only screens that work today are listed; the others join as they are built. */
export const NAV_ITEMS = [
  { path: '/', label: '契約一覧', icon: OrderRepeatIcon },
  { path: '/analytics', label: '分析', icon: ChartVerticalIcon },
  { path: '/persistence-rate', label: '継続率', icon: ChartCohortIcon },
  { path: '/traffic', label: '流入元', icon: TargetIcon },
  { path: '/segments', label: 'セグメント', icon: PersonSegmentIcon },
  { path: '/ltv', label: 'LTV', icon: CashYenIcon },
  { path: '/selling-plans', label: '販売プラン', icon: DiscountIcon },
  { path: '/boxes', label: 'ボックス', icon: PackageIcon },
  { path: '/batch', label: '一括更新', icon: EditIcon },
  { path: '/billing/upcoming', label: '請求予定', icon: CalendarTimeIcon },
  { path: '/shipping', label: '出荷予定', icon: DeliveryIcon },
  { path: '/cancellation-reasons', label: '解約理由', icon: XCircleIcon },
  { path: '/billing/settings', label: '請求設定', icon: CashYenIcon },
  { path: '/mail-templates', label: 'メールテンプレート', icon: EmailIcon },
  { path: '/settings', label: '設定', icon: SettingsIcon },
  { path: '/theme', label: 'テーマ', icon: StoreOnlineIcon },
  { path: '/plans', label: 'プラン', icon: PlanIcon },
] as const

export function isNavItemSelected(itemPath: string, pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return itemPath === '/'
    ? normalized === '/'
    : normalized === itemPath || normalized.startsWith(`${itemPath}/`)
}

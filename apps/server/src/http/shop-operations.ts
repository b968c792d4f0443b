import { appPlanRoutes } from '../features/app-plan/routes.ts'
import { type MailTemplateRouteOptions, mailTemplateRoutes } from '../features/mail-templates/routes.ts'
import { settingsRoutes } from '../features/settings/routes.ts'
import type { AppInstance } from './app-instance.ts'

/** Issue 16's routes: 設定, メールテンプレート and the shop's sender, プラン and eligibility. */
export function shopOperationRoutes(app: AppInstance, mail: MailTemplateRouteOptions): void {
  mailTemplateRoutes(app, mail)
  settingsRoutes(app)
  appPlanRoutes(app)
}

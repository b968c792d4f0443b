-- Issue 23: the app's plan follows the platform (app_subscriptions/update).
-- A partner development store passes the page gate like a test shop (ADR 0029); the sync keeps
-- the platform's `shop.plan.partnerDevelopment` here.
alter table shops add column partner_development boolean not null default false;

-- A plan change the merchant declined, or did not approve within the platform's two days.
alter table app_plan_changes drop constraint app_plan_changes_status_check;
alter table app_plan_changes add constraint app_plan_changes_status_check
  check (status in ('pending', 'active', 'abandoned', 'declined', 'expired'));

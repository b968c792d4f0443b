-- What the platform let the app read and write (issue 23).
--
-- orders_readable_from: the instant from which the mirror holds every order of the shop. The
-- platform gives an app the last 60 days of orders unless it holds read_all_orders, so a sync
-- without that scope records (its end - 60 days); null: every order was read (or the shop was
-- never synced). A shop synced before this column existed never held read_all_orders (the app
-- did not ask for it): its mirror is complete from its last sync's start - 60 days at best.
-- A later sync that finds the scope granted reads every contract's orders again and clears it.
alter table shops add column orders_readable_from timestamptz;
update shops set orders_readable_from = synced_at - interval '60 days'
  where synced_at is not null and not ('read_all_orders' = any(scopes));

-- theme_files_denied_at: when the platform last refused the app's theme-file write
-- (themeFilesUpsert needs an exemption few apps get); while recent, ウィジェットを追加 opens the
-- theme editor at the block instead of trying again.
alter table shops add column theme_files_denied_at timestamptz;

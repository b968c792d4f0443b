-- Contract edits (issue 4): what the app keeps about a contract that the platform does not.

-- Order count. The count is the orders the mirror holds for the contract (not cancelled),
-- unless the merchant corrected it: then it is the value they set plus the orders created
-- since (a contract migrated from another app keeps counting from the corrected value).
alter table subscription_contracts drop column order_count;
alter table subscription_contracts add column order_count_set integer check (order_count_set >= 0);
alter table subscription_contracts add column order_count_set_at timestamptz;
-- Set when the merchant changed a line price by hand: later price syncs leave the contract alone.
alter table subscription_contracts add column price_manually_changed_at timestamptz;

-- The shop's own list of cancellation reasons (spec §3 "Cancellation reason"). Deleting one
-- hides it from the list; cancellations already recorded keep their text.
create table cancellation_reasons (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigserial not null,
  reason text not null check (length(reason) between 1 and 200),
  position integer not null default 0,
  created_at timestamptz not null default now(),
  deleted_at timestamptz,
  primary key (shop_id, id)
);
create unique index cancellation_reasons_unique_idx on cancellation_reasons (shop_id, reason) where deleted_at is null;

-- The reason a contract was cancelled with (the latest cancellation; the history is in
-- contract_events). The reason text is copied so renaming or deleting a reason never
-- rewrites what a past cancellation said.
create table contract_cancellations (
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  reason_id bigint,
  reason text not null,
  cancelled_at timestamptz not null,
  primary key (shop_id, contract_id)
);
create index contract_cancellations_reason_idx on contract_cancellations (shop_id, reason_id);

-- CSV exports of contracts (POST /export-subscription-contracts): one row per run, with its
-- progress while it runs and the file when it is done.
create table contract_exports (
  shop_id bigint not null references shops(id) on delete cascade,
  id uuid not null,
  status text not null check (status in ('queued', 'running', 'done', 'failed')),
  filter jsonb not null default '{}',
  encoding text not null check (encoding in ('utf-8', 'shift_jis')),
  email text,
  total_rows integer,
  done_rows integer not null default 0,
  file_path text,
  byte_size bigint,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (shop_id, id)
);

-- Every mail the app sends, as sent (or as it failed): the audit trail and, without SMTP,
-- the place to read it.
create table mail_outbox (
  id bigserial primary key,
  shop_id bigint references shops(id) on delete cascade,
  to_address text not null,
  subject text not null,
  body text not null,
  attachments jsonb not null default '[]',
  status text not null check (status in ('sent', 'failed', 'stored')),
  error text,
  created_at timestamptz not null default now()
);
create index mail_outbox_shop_idx on mail_outbox (shop_id, created_at);

-- Billing engine (issue 5): the shop's billing settings, one row per contract billing cycle
-- (what makes a charge exactly-once across processes and restarts), the run log, and the
-- date each shop's scheduled run last started.

-- The shop's dunning and schedule settings (GET/PUT /app-admin/billing-settings). No row:
-- DEFAULT_BILLING_SETTINGS of packages/contract.
create table billing_settings (
  shop_id bigint primary key references shops(id) on delete cascade,
  billing_hour smallint not null check (billing_hour between 0 and 23),
  lookback_days smallint not null check (lookback_days between 0 and 14),
  retry_attempts smallint not null check (retry_attempts between 0 and 10),
  retry_interval_days smallint not null check (retry_interval_days between 1 and 14),
  final_action text not null check (final_action in ('CANCEL', 'PAUSE', 'SKIP')),
  inventory_retry_attempts smallint not null check (inventory_retry_attempts between 0 and 10),
  inventory_retry_interval_days smallint not null check (inventory_retry_interval_days between 1 and 14),
  inventory_final_action text not null check (inventory_final_action in ('CANCEL', 'PAUSE', 'SKIP')),
  delivery_prep_days smallint not null check (delivery_prep_days between 0 and 30),
  updated_at timestamptz not null default now()
);

-- The shop-local date of the last scheduled run that was started: the per-minute tick claims
-- a day with a conditional update, so several worker processes start one run per shop and day.
create table billing_schedule (
  shop_id bigint primary key references shops(id) on delete cascade,
  last_run_date date not null,
  last_run_at timestamptz not null default now()
);

-- One row per run (scheduled, CLI or test). The outcome counters grow as outcomes arrive
-- (webhooks and polls may settle attempts after the run itself returned).
create table billing_runs (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigserial not null,
  trigger text not null check (trigger in ('schedule', 'cli', 'manual')),
  run_at timestamptz not null,                 -- the run's "now": contracts due up to here
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  due integer not null default 0,
  attempted integer not null default 0,
  succeeded integer not null default 0,
  failed integer not null default 0,
  skipped integer not null default 0,
  already_billed integer not null default 0,
  error text,
  primary key (shop_id, id)
);
create index billing_runs_recent_idx on billing_runs (shop_id, started_at desc);

-- One billing cycle of one contract: the charge for the next billing date that was due
-- (cycle_date = its shop-local date). Inserted with `on conflict do nothing` BEFORE the
-- platform is asked, so whichever process inserts it owns the charge; the idempotency key
-- (billing:{contract}:{cycle_date}:{attempt_no}) makes a re-sent create after a crash return
-- the same platform attempt. attempt_no 0 is the first charge, 1.. the dunning retries.
create table billing_cycles (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigserial not null,
  contract_id bigint not null,
  cycle_date date not null,
  due_at timestamptz not null,                 -- the next billing instant that was due
  origin text not null check (origin in ('schedule', 'order_now')),
  status text not null check (status in ('attempting', 'retry_scheduled', 'succeeded', 'failed')),
  attempt_no integer not null default 0,
  idempotency_key text not null,               -- of the current attempt
  attempt_id bigint,                           -- the platform's attempt for attempt_no, once known
  failure_kind text check (failure_kind in ('payment', 'inventory')),
  error_code text,
  error_message text,
  next_retry_at timestamptz,                   -- set while status = 'retry_scheduled'
  final_action text check (final_action in ('CANCEL', 'PAUSE', 'SKIP')),
  order_id bigint,
  amount numeric(20, 4),
  currency_code text,
  cycle_index integer,                         -- the contract's order count with this order
  run_id bigint,
  mailed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  settled_at timestamptz,
  primary key (shop_id, id),
  unique (shop_id, contract_id, cycle_date)
);
create index billing_cycles_retry_idx on billing_cycles (shop_id, next_retry_at) where status = 'retry_scheduled';
create index billing_cycles_open_idx on billing_cycles (shop_id, updated_at) where status = 'attempting';
create index billing_cycles_attempt_idx on billing_cycles (shop_id, attempt_id);

-- Batch updates (一括更新, issue 17): one row per batch and one per (batch, contract), both
-- written in the transaction that starts the batch, before the platform is asked anything.
-- An item's status says what the batch did to that contract, so a process killed mid-way
-- resumes with the items still pending, and an item cut off between the platform's commit and
-- its own row ('applying') is judged by the contract's state on the platform, never re-applied.

create table batch_updates (
  shop_id bigint not null references shops(id) on delete cascade,
  id uuid not null,
  kind text not null check (kind in ('product-update', 'product-delete', 'next-billing-date-update')),
  params jsonb not null,
  -- where the result mail goes (null: no mail)
  notify_email text,
  status text not null check (status in ('queued', 'running', 'done', 'cancelled', 'failed')),
  total integer not null default 0,
  changed integer not null default 0,
  skipped integer not null default 0,
  failed integer not null default 0,
  error text,
  -- the worker running it (host:pid) and its last sign of life: a dead one's batch is resumed
  owner text,
  heartbeat_at timestamptz not null default now(),
  cancel_requested_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- when a worker first started it (the spec's job status `executedAt`)
  executed_at timestamptz,
  finished_at timestamptz,
  primary key (shop_id, id)
);
create index batch_updates_recent_idx on batch_updates (shop_id, created_at desc);
create index batch_updates_open_idx on batch_updates (status) where status in ('queued', 'running');

create table batch_update_items (
  shop_id bigint not null,
  batch_id uuid not null,
  contract_id bigint not null,
  status text not null default 'pending'
    check (status in ('pending', 'applying', 'changed', 'skipped', 'failed')),
  reason text,
  updated_at timestamptz not null default now(),
  primary key (shop_id, batch_id, contract_id),
  foreign key (shop_id, batch_id) references batch_updates(shop_id, id) on delete cascade
);
create index batch_update_items_status_idx on batch_update_items (shop_id, batch_id, status, contract_id);

-- Issue 15: the segment's tag batch and the segment export run as pg-boss jobs
-- (jobs/cdp-jobs.ts, ADR 0025).

-- A tag batch: the segment's conditions as they were at the request; the customers it covers are
-- snapshotted into cdp_tag_job_items by the first worker that claims it (with `total`, in one
-- transaction). `owner` (host:pid) and `heartbeat_at` tell a sweep that its worker died.
alter table cdp_tag_jobs
  add column conditions jsonb,
  add column owner text,
  add column heartbeat_at timestamptz;
-- Jobs of the in-process runner that a restart stranded: ended, as the screen already showed them.
update cdp_tag_jobs set status = 'failed', finished_at = coalesce(finished_at, now()),
  error = coalesce(error, 'タグの一括追加が中断されました。もう一度実行すると、残りの顧客に追加します。')
  where status in ('queued', 'running');
create index cdp_tag_jobs_open_idx on cdp_tag_jobs (status) where status in ('queued', 'running');

-- One row per customer of the snapshot. pending → applying (tagsAdd asked) → done | failed: a
-- row is counted on its job once, when it leaves pending/applying.
create table cdp_tag_job_items (
  shop_id bigint not null references shops(id) on delete cascade,
  job_id bigint not null references cdp_tag_jobs(id) on delete cascade,
  customer_id bigint not null,
  status text not null default 'pending' check (status in ('pending', 'applying', 'done', 'failed')),
  reason text,
  primary key (job_id, customer_id)
);
create index cdp_tag_job_items_open_idx on cdp_tag_job_items (job_id, customer_id)
  where status in ('pending', 'applying');

-- A segment export (`cdp-customer-list-export`): the CSV is written by the job to
-- DATA_DIR/cdp-exports/<id>.csv, mailed through the outbox (`mail_id`), and the file removed once
-- the mail is sent or has finally failed (the sweep removes what a crash left, after a day).
create table cdp_segment_exports (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  segment_id bigint not null,
  segment_name text not null,
  conditions jsonb not null,
  email text not null,
  encoding text not null check (encoding in ('utf-8', 'shift_jis')),
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  row_count integer,
  file_name text,
  mail_id bigint,
  error text,
  owner text,
  heartbeat_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index cdp_segment_exports_shop_idx on cdp_segment_exports (shop_id, segment_id, id);
create index cdp_segment_exports_open_idx on cdp_segment_exports (status)
  where status in ('queued', 'running');

-- Issue 24 item 1: contract exports run as tracked runs (runs/tracked-run.ts, ADR 0036), like the
-- batch updates, tag batches and segment exports: `owner` (host:pid) names the process running
-- one, so a process that died on this host is seen at once rather than after the heartbeat goes
-- stale; `updated_at` (claim, release, end) tells the sweep a queued export nobody took.
alter table contract_exports
  add column owner text,
  add column updated_at timestamptz not null default now();

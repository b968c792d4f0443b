-- A billing run whose process was killed used to stay 実行中 forever (issue 11 item 6). A running
-- run touches heartbeat_at every few seconds and names its process (owner = host:pid); a run
-- unfinished whose heartbeat is old, or whose owner on this host is gone, is marked aborted
-- (finished, aborted_at set, shown as 中断) by whichever process notices first, and a `resume`
-- run picks up what it left (the due contracts, the creates it cut off, its open attempts).
alter table billing_runs add column heartbeat_at timestamptz not null default now();
alter table billing_runs add column owner text;
alter table billing_runs add column aborted_at timestamptz;
-- The run a `resume` run continues.
alter table billing_runs add column resumed_from bigint;
alter table billing_runs drop constraint billing_runs_trigger_check;
alter table billing_runs add constraint billing_runs_trigger_check
  check (trigger in ('schedule', 'cli', 'manual', 'resume'));
create index billing_runs_unfinished_idx on billing_runs (heartbeat_at) where finished_at is null;
-- The same for a mail a sender claimed (`sending`): its owner, so a claim whose process on this
-- host is gone is sent again at once instead of after the 5-minute stale limit.
alter table mail_outbox add column claimed_by text;

-- Export jobs run inside an app process. Every write to a job touches heartbeat_at; a job
-- still queued or running whose heartbeat is old was cut off by a crashed process and is
-- marked failed (see features/exports), whichever process notices first.
alter table contract_exports add column heartbeat_at timestamptz not null default now();

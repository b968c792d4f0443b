-- Issue 26 (ADR 0042): マイページ's changes. One row per shop that saved its my-page settings
-- (none: the defaults of packages/domain my-page/subscriber-rules.ts): which changes a
-- subscriber may make, and the change lock in days before the next billing.
create table my_page_settings (
  shop_id bigint primary key references shops(id) on delete cascade,
  actions jsonb not null,
  lock_days int not null check (lock_days between 0 and 30),
  updated_at timestamptz not null default now()
);

-- A subscriber's pause for N cycles: the contract is PAUSED on the platform with its next billing
-- moved N cycles on, and resumed (ACTIVE) by the resume sweep a day before that billing. A
-- resume by anyone, a cancellation or the merchant's pause ends the row.
create table contract_pauses (
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  cycles int not null check (cycles between 1 and 3),
  resume_at timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (shop_id, contract_id)
);
create index contract_pauses_resume_idx on contract_pauses (resume_at);

-- Issue 26 (ADR 0042): 解約防止オファー. One offer per cancellation reason (null: none), and each
-- subscriber's cancellation on マイページ as a flow: asked with a reason, maybe offered once,
-- then kept (the offer accepted, with the revenue it keeps) or cancelled. An offer is shown to a
-- contract once: a decided flow with an offer is never offered again (the partial unique index
-- keeps one offered flow per contract).
alter table cancellation_reasons add column offer jsonb;

create table cancellation_flows (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  reason_id bigint not null,
  reason text not null,
  offer jsonb,
  outcome text not null check (outcome in ('offered', 'kept', 'cancelled')),
  revenue_kept numeric(20, 4) not null default 0,
  currency_code text not null default 'JPY',
  created_at timestamptz not null default now(),
  decided_at timestamptz
);
create unique index cancellation_flows_offered_once on cancellation_flows (shop_id, contract_id) where offer is not null;
create index cancellation_flows_shop_idx on cancellation_flows (shop_id, created_at);

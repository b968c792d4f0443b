-- Which campaign brought a subscription contract (issue 14 item 5, spec §3 traffic report):
-- the last non-direct touch within 30 days before the contract's origin checkout, written by
-- the traffic feature when it attributes a checkout, read by the reports (persistence split
-- by source/medium) and by the customer segments (issue 15, condition on source/medium).
-- One row per contract; a contract with no tracked touch has no row ("direct / none").
create table contract_attributions (
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  customer_id bigint,
  source text not null,
  medium text not null default '',
  campaign text not null default '',
  content text not null default '',
  touched_at timestamptz not null,            -- when the attributed page view happened
  attributed_at timestamptz not null default now(),
  primary key (shop_id, contract_id)
);
create index contract_attributions_source_idx
  on contract_attributions (shop_id, source, medium, contract_id);
create index contract_attributions_customer_idx on contract_attributions (shop_id, customer_id);

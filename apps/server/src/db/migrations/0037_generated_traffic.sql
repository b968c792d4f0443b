-- Issue 23: the demo shop's traffic history is generated (features/traffic/demo-history.ts), not
-- measured. This row says so, with the last shop-local day it covers: 流入元 labels every figure
-- up to that day as generated; later page views and attributions are the web pixel's, measured
-- in the emulated store. One row per shop, written with the history; a shop without a row has
-- only measured traffic.
create table traffic_generated_history (
  shop_id bigint primary key references shops(id) on delete cascade,
  generated_through date not null,
  -- contracts the history gave a made-up source (contract_attributions rows of the seed)
  attributed_contracts integer not null,
  created_at timestamptz not null default now()
);

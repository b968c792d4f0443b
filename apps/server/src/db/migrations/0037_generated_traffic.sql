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

-- A demo seeded before this migration generated its history through the UTC day it ran
-- (demo-history.ts then took `new Date()`'s date), and its attributions for the contracts
-- already there: labelled the same way.
insert into traffic_generated_history (shop_id, generated_through, attributed_contracts, created_at)
select d.shop_id, (d.seeded_at at time zone 'UTC')::date,
  (select count(*)::int from contract_attributions a
     join subscription_contracts c on c.shop_id = a.shop_id and c.id = a.contract_id
   where a.shop_id = d.shop_id and c.created_at <= d.seeded_at),
  d.seeded_at
from demo_seeds d
where d.name = 'traffic-history'
on conflict (shop_id) do nothing;

-- Traffic (issue 14, ADR 0016): what the web pixel (extensions/teiki-pixel) sends, and the
-- per day views the traffic report reads. contract_attributions (0017) is written from these.

-- The pixel's per shop key (its `accountID` setting): the ingest endpoint's credential. Not a
-- secret from shoppers (it sits in the storefront's pixel settings); it only ties hits to a shop.
create table traffic_pixel_keys (
  shop_id bigint primary key references shops(id) on delete cascade,
  key text not null,
  created_at timestamptz not null default now()
);

-- One row per pixel event; the event id (the pixel's own) makes a replay a no-op. Dated by the
-- server's clock when received: a shopper's clock cannot move a touch into the past.
create table traffic_hits (
  shop_id bigint not null references shops(id) on delete cascade,
  event_id text not null,
  kind text not null check (kind in ('page_viewed', 'checkout_completed')),
  occurred_at timestamptz not null default now(),
  client_id text not null,
  source text not null default '',            -- '' = direct (no utm_source)
  medium text not null default '',
  campaign text not null default '',
  content text not null default '',
  order_id bigint,                            -- completed checkouts: the order it made
  settled boolean not null default false,     -- checkouts: attribution decided
  primary key (shop_id, event_id)
);
create index traffic_hits_touch_idx on traffic_hits (shop_id, client_id, occurred_at)
  where kind = 'page_viewed' and source <> '';
create index traffic_hits_checkout_idx on traffic_hits (shop_id, occurred_at)
  where kind = 'checkout_completed' and not settled;

-- Page views per shop-local day and utm values: the report's access counts and the filter values.
-- Split in slots (report_slot(), 0018) so the ingest's concurrent batches, which count the same
-- campaigns on the same day, do not wait for each other's row locks; readers sum the slots.
create table traffic_daily (
  shop_id bigint not null references shops(id) on delete cascade,
  day date not null,
  source text not null,
  medium text not null,
  campaign text not null,
  content text not null,
  slot smallint not null default 0,
  views integer not null default 0,
  primary key (shop_id, day, source, medium, campaign, content, slot)
);

-- The contract a checkout made is found by its origin order.
create index contracts_origin_order_idx on subscription_contracts (shop_id, origin_order_id)
  where origin_order_id is not null;

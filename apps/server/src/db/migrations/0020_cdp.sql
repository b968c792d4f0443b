-- Customer data platform (issue 15): customer tags, lifetime totals, segments and their groups,
-- the tag history the customer log shows, and tag batches run over a segment.

-- Tags as the platform has them (Customer.tags), kept by the sync, the customer webhooks and
-- the app's own tagsAdd/tagsRemove answers.
alter table customers add column tags text[] not null default '{}';
create index customers_tags_idx on customers using gin (tags);

-- Orders by customer: the totals below, the customer detail and the LTV table read them so.
create index orders_customer_idx on orders (shop_id, customer_id, created_at)
  include (total_amount, currency_code, test, cancelled_at, contract_id);
-- The LTV table sums a date range of the shop's orders.
create index orders_created_idx on orders (shop_id, created_at)
  include (customer_id, total_amount, currency_code, test, cancelled_at, contract_id);

-- Lifetime totals of each customer: the successful subscription orders (linked to a contract,
-- not a test, not cancelled), their count, first and last order, and the sum per currency (never
-- summed across currencies). Kept by the triggers below from whatever writes `orders` (the sync,
-- the billing engine, the order webhook), so no writer has to remember it; the segments read it
-- instead of aggregating every customer's orders on each page.
create table customer_totals (
  shop_id bigint not null references shops(id) on delete cascade,
  customer_id bigint not null,
  order_count integer not null,
  first_order_at timestamptz not null,
  last_order_at timestamptz not null,
  amounts jsonb not null,                     -- {"JPY": {"amount": 11880, "orders": 6}, "USD": {...}}
  primary key (shop_id, customer_id)
);

-- Recomputes one customer's totals. Concurrent writers of the same customer's orders (the
-- bulk sync writes batches in parallel) take the customer's lock in turn, and each computes
-- after the previous one committed (every statement of a plpgsql function reads a fresh
-- snapshot under read committed), so the last one counts every order.
create function customer_totals_refresh(p_shop bigint, p_customer bigint) returns void
language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('customer_totals:' || p_shop || ':' || p_customer, 0));
  delete from customer_totals where shop_id = p_shop and customer_id = p_customer;
  insert into customer_totals (shop_id, customer_id, order_count, first_order_at, last_order_at, amounts)
  select p_shop, p_customer, sum(n)::integer, min(first_at), max(last_at),
    jsonb_object_agg(currency, jsonb_build_object('amount', total, 'orders', n))
  from (
    select coalesce(currency_code, 'JPY') as currency, count(*) as n, min(created_at) as first_at,
      max(created_at) as last_at, sum(coalesce(total_amount, 0)) as total
    from orders
    where shop_id = p_shop and customer_id = p_customer and contract_id is not null and not test
      and cancelled_at is null
    group by 1
  ) per_currency
  having count(*) > 0;
end $$;

-- Statement-level with transition tables: a sync page of 250 orders refreshes each of its
-- customers once, not once per row, in customer order (two writers never wait on each other
-- in opposite orders).
create function customer_totals_after_orders() returns trigger language plpgsql as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    perform customer_totals_refresh(x.shop_id, x.customer_id)
    from (select distinct shop_id, customer_id from new_rows where customer_id is not null order by 1, 2) x;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform customer_totals_refresh(x.shop_id, x.customer_id)
    from (select distinct shop_id, customer_id from old_rows where customer_id is not null order by 1, 2) x;
  end if;
  return null;
end $$;
create trigger orders_totals_insert after insert on orders referencing new table as new_rows
  for each statement execute function customer_totals_after_orders();
create trigger orders_totals_update after update on orders referencing old table as old_rows new table as new_rows
  for each statement execute function customer_totals_after_orders();
create trigger orders_totals_delete after delete on orders referencing old table as old_rows
  for each statement execute function customer_totals_after_orders();

-- Totals of the orders already mirrored.
insert into customer_totals (shop_id, customer_id, order_count, first_order_at, last_order_at, amounts)
select shop_id, customer_id, sum(n)::integer, min(first_at), max(last_at), jsonb_object_agg(currency, jsonb_build_object('amount', total, 'orders', n))
from (
  select shop_id, customer_id, coalesce(currency_code, 'JPY') as currency, count(*) as n,
    min(created_at) as first_at, max(created_at) as last_at, sum(coalesce(total_amount, 0)) as total
  from orders
  where customer_id is not null and contract_id is not null and not test and cancelled_at is null
  group by 1, 2, 3
) per_currency
group by 1, 2;

-- Segment groups (cdp-group-list) and segments: a saved set of conditions (ADR 0017).
create table cdp_segment_groups (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  unique (shop_id, name)
);

create table cdp_segments (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  group_id bigint references cdp_segment_groups(id) on delete set null,
  name text not null,
  conditions jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index cdp_segments_shop_idx on cdp_segments (shop_id, id);

-- What happened to a customer's tags, for the customer log (newest first).
create table customer_tag_events (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  customer_id bigint not null,
  action text not null check (action in ('added', 'removed')),
  tags text[] not null,
  source text not null,                       -- app | segment | webhook
  occurred_at timestamptz not null default now()
);
create index customer_tag_events_customer_idx on customer_tag_events (shop_id, customer_id, occurred_at);

-- A tag added to every customer of a segment, run in the background with its progress.
create table cdp_tag_jobs (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  segment_id bigint not null,
  tag text not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  total integer,
  done integer not null default 0,
  failed integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  -- Moved on with every batch of 50: a running job not moved for 10 minutes died with its process.
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index cdp_tag_jobs_shop_idx on cdp_tag_jobs (shop_id, id);
create index mail_outbox_to_idx on mail_outbox (shop_id, lower(to_address));

-- Refunds (issues 14 and 15, ADR 0023): each order's refunded amount, as the platform's
-- Order.totalRefundedSet says (the sync, orders/updated and refunds/create keep it). Every
-- measure of money takes it off the order's total — the daily subtotal on the order's day,
-- LTV and the customer's lifetime totals — the one definition of packages/domain
-- (analytics/measures.ts `netAmount`).
alter table orders add column refunded_amount numeric(20, 4) not null default 0;

-- The daily subtotal (migration 0018): an order adds its net amount to the day it was created,
-- and an update (a refund) takes back the old net amount and adds the new one, on that day.
create or replace function report_orders_apply() returns trigger language plpgsql as $$
declare
  rows jsonb;
begin
  if tg_op = 'INSERT' then
    select coalesce(jsonb_agg(jsonb_build_object('shop_id', n.shop_id, 'contract_id', n.contract_id,
      'created_at', n.created_at, 'currency_code', n.currency_code,
      'total_amount', coalesce(n.total_amount, 0) - n.refunded_amount, 'test', n.test, 'sign', 1)), '[]')
    into rows from new_orders n where n.contract_id is not null and n.cancelled_at is null;
  elsif tg_op = 'UPDATE' then
    select coalesce(jsonb_agg(x), '[]') into rows from (
      select jsonb_build_object('shop_id', n.shop_id, 'contract_id', n.contract_id, 'created_at', n.created_at,
        'currency_code', n.currency_code, 'total_amount', coalesce(n.total_amount, 0) - n.refunded_amount,
        'test', n.test, 'sign', 1) as x
      from new_orders n where n.contract_id is not null and n.cancelled_at is null
      union all
      select jsonb_build_object('shop_id', o.shop_id, 'contract_id', o.contract_id, 'created_at', o.created_at,
        'currency_code', o.currency_code, 'total_amount', coalesce(o.total_amount, 0) - o.refunded_amount,
        'test', o.test, 'sign', -1)
      from old_orders o where o.contract_id is not null and o.cancelled_at is null
    ) t;
  else
    select coalesce(jsonb_agg(jsonb_build_object('shop_id', o.shop_id, 'contract_id', o.contract_id,
      'created_at', o.created_at, 'currency_code', o.currency_code,
      'total_amount', coalesce(o.total_amount, 0) - o.refunded_amount, 'test', o.test, 'sign', -1)), '[]')
    into rows from old_orders o where o.contract_id is not null and o.cancelled_at is null;
  end if;
  if rows <> '[]'::jsonb then
    perform report_orders_apply_rows(rows);
  end if;
  return null;
end $$;

-- The LTV table (issue 15: a year of a 100k-customer shop, p95 ≤ 200 ms) sums the net amounts of
-- the range's counted orders per customer and currency. Measured on the bench shop (ADR 0023):
-- the hash aggregate's numeric sums were most of the time; the same sums over whole minor units
-- in a bigint take about half. So each order carries its net amount in ten-thousandths (the
-- scale of total_amount: exact), computed by PostgreSQL from the two columns it is made of, and
-- a partial covering index holds exactly the rows LTV counts, with only what it reads.
alter table orders add column net_minor bigint
  generated always as (((coalesce(total_amount, 0) - refunded_amount) * 10000)::bigint) stored;
create index orders_ltv_idx on orders (shop_id, created_at) include (customer_id, currency_code, net_minor)
  where customer_id is not null and contract_id is not null and not test and cancelled_at is null;
-- It replaces the index that held every order for the same scan (migration 0020).
drop index orders_created_idx;

-- LTV by month (ADR 0023): per shop, customer and currency, the running net amount and count of
-- the counted orders through each shop-local month, from the customer's first such month to
-- their last. A range's whole months are then two array elements per customer (through the
-- last month minus through the month before the first), with no aggregate over the orders; the
-- days at the range's edges outside whole months are summed from the orders (orders_ltv_idx).
-- Monthly subscriptions have one order per customer per month, so a plain per-month rollup
-- would be as long as the orders: the running total is what makes a year two reads.
create table ltv_months (
  shop_id bigint not null references shops(id) on delete cascade,
  customer_id bigint not null,
  currency_code text not null,
  base_month integer not null,            -- year × 12 + month − 1 of the first element
  amounts bigint[] not null,              -- amounts[k]: net_minor summed through month base_month + k − 1
  counts integer[] not null,              -- the same for the order count
  primary key (shop_id, customer_id, currency_code)
);

-- The rows of some customers of a shop: the counted orders per month, every month of the span
-- filled, summed as running totals (customers by array, so one customer's refresh is an index
-- probe of orders_customer_idx).
create function ltv_month_rows(p_shop bigint, p_customers bigint[])
returns table (customer_id bigint, currency_code text, base_month integer, amounts bigint[], counts integer[])
language sql stable as $$
  with per_month as (
    select o.customer_id, coalesce(o.currency_code, 'JPY') as cur,
      extract(year from o.created_at at time zone s.iana_timezone)::int * 12
        + extract(month from o.created_at at time zone s.iana_timezone)::int - 1 as m,
      sum(o.net_minor) as amount, count(*) as n
    from orders o join shops s on s.id = o.shop_id
    where o.shop_id = p_shop and o.customer_id = any(p_customers)
      and o.contract_id is not null and not o.test and o.cancelled_at is null
    group by 1, 2, 3
  ), spans as (
    select p.customer_id, p.cur, min(p.m) as base, max(p.m) as last from per_month p group by 1, 2
  )
  select x.customer_id, x.cur, x.base, array_agg(x.amount order by x.m), array_agg(x.n order by x.m)
  from (
    select g.customer_id, g.cur, g.base, k.m,
      (sum(coalesce(pm.amount, 0)) over w)::bigint as amount, (sum(coalesce(pm.n, 0)) over w)::int as n
    from spans g cross join lateral generate_series(g.base, g.last) k(m)
    left join per_month pm on pm.customer_id = g.customer_id and pm.cur = g.cur and pm.m = k.m
    window w as (partition by g.customer_id, g.cur order by k.m)
  ) x
  group by x.customer_id, x.cur, x.base
$$;

-- Rebuilds a whole shop's rows (the backfill below; the cdp bench after its seed).
create function ltv_months_rebuild(p_shop bigint) returns void language sql as $$
  delete from ltv_months where shop_id = p_shop;
  insert into ltv_months (shop_id, customer_id, currency_code, base_month, amounts, counts)
  select p_shop, r.* from ltv_month_rows(p_shop, array(
    select distinct o.customer_id from orders o where o.shop_id = p_shop and o.customer_id is not null)) r;
$$;

-- Lifetime totals (migration 0020), now net of refunds, and the LTV months kept with them: the
-- same per-customer refresh, under the same lock, from the same statement-level triggers on
-- orders.
create or replace function customer_totals_refresh(p_shop bigint, p_customer bigint) returns void
language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('customer_totals:' || p_shop || ':' || p_customer, 0));
  delete from customer_totals where shop_id = p_shop and customer_id = p_customer;
  insert into customer_totals (shop_id, customer_id, order_count, first_order_at, last_order_at, amounts)
  select p_shop, p_customer, sum(n)::integer, min(first_at), max(last_at),
    jsonb_object_agg(currency, jsonb_build_object('amount', total, 'orders', n))
  from (
    select coalesce(currency_code, 'JPY') as currency, count(*) as n, min(created_at) as first_at,
      max(created_at) as last_at, sum(coalesce(total_amount, 0) - refunded_amount) as total
    from orders
    where shop_id = p_shop and customer_id = p_customer and contract_id is not null and not test
      and cancelled_at is null
    group by 1
  ) per_currency
  having count(*) > 0;
  delete from ltv_months where shop_id = p_shop and customer_id = p_customer;
  insert into ltv_months (shop_id, customer_id, currency_code, base_month, amounts, counts)
  select p_shop, r.* from ltv_month_rows(p_shop, array[p_customer]) r;
end $$;

select ltv_months_rebuild(id) from shops;

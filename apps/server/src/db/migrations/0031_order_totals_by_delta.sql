-- Lifetime totals and LTV months by delta (issue 21, ADR 0031).
--
-- Before: every statement that wrote orders recomputed each touched customer's lifetime totals
-- and LTV months from all of that customer's orders (customer_totals_refresh, 0020 and 0028),
-- under a per-customer advisory lock so that two writers of one customer took turns. Measured:
-- the recompute's plan (generic, or on a table whose statistics lag a bulk write) scanned the
-- shop's whole orders index for each customer, so each thousand contracts of a first sync took
-- longer than the one before (100,000 contracts: hours instead of 50 s), and the lock made the
-- sync's parallel batches and the billing engine's settlements wait on each other.
--
-- Now an order statement adds what it changed, as the report rollups do (0018): each counted
-- order (linked to a contract and a customer, not a test, not cancelled: domain analytics
-- `isCountedOrder`) contributes +1 with its net amount when it appears and −1 with its old net
-- amount when it goes or changes. Sums commute, so concurrent writers need no lock of their
-- own: an upsert's `x = x + excluded.x` waits only for a row another transaction is writing
-- and then adds to what it committed. The work is per order written, never per order held.
--
--   customer_totals  order_count and each currency's amount and orders: added. first/last
--                    order: least/greatest of what was added; when a counted order goes and it
--                    was the customer's first or last, that bound is read again from the
--                    customer's orders (orders_customer_idx: one customer's rows).
--   ltv_months       running totals per month (0028) are added like numbers: the sum of two
--                    running totals is the running total of the sum, read through THROUGH's
--                    rule (0 before the first month, flat after the last). A delta is itself a
--                    running total from its first month to its last, merged into the row's.
--                    A customer whose orders all went keeps a row of zeros; every reader keeps
--                    only customers with orders in its range (ltv-repo `w.n > 0`).

drop trigger orders_totals_insert on orders;
drop trigger orders_totals_update on orders;
drop trigger orders_totals_delete on orders;
drop function customer_totals_after_orders();
drop function customer_totals_refresh(bigint, bigint);

-- Two running totals added: each read as 0 before its base month and as its last element after
-- its end, over the months both span.
create function ltv_running_add(b1 integer, a1 bigint[], b2 integer, a2 bigint[]) returns bigint[]
language sql immutable as $$
  select array_agg(
    (case when m < b1 then 0 else a1[least(m - b1 + 1, cardinality(a1))] end)
      + (case when m < b2 then 0 else a2[least(m - b2 + 1, cardinality(a2))] end)
    order by m)
  from generate_series(least(b1, b2), greatest(b1 + cardinality(a1), b2 + cardinality(a2)) - 1) m
$$;

-- Each currency's amount and order count added; a currency left with no orders is dropped.
create function customer_amounts_add(a jsonb, d jsonb) returns jsonb language sql immutable as $$
  select coalesce(jsonb_object_agg(k, jsonb_build_object('amount', amount, 'orders', n) order by k), '{}')
  from (
    select k, sum((v->>'amount')::numeric) as amount, sum((v->>'orders')::integer) as n
    from (select * from jsonb_each(a) union all select * from jsonb_each(d)) e(k, v)
    group by k
    having sum((v->>'orders')::integer) <> 0
  ) per_currency
$$;

-- One counted order's contribution: +1 and its net amount when it appears, −1 and its old net
-- amount when it goes. Passed between the trigger and the function as an array of these (no
-- JSON built and parsed per row: the first sync writes a million orders).
create type order_delta as (
  shop_id bigint, customer_id bigint, cur text, created_at timestamptz, amount numeric, minor bigint, sign integer
);

-- The contributions, each with its shop-local month (ltv_months' numbering).
create function order_deltas(rows order_delta[])
returns table (shop_id bigint, customer_id bigint, cur text, created_at timestamptz, amount numeric,
  minor bigint, month integer, sign integer)
language sql stable as $$
  select c.shop_id, c.customer_id, c.cur, c.created_at, c.amount, c.minor,
    extract(year from c.created_at at time zone s.iana_timezone)::int * 12
      + extract(month from c.created_at at time zone s.iana_timezone)::int - 1,
    c.sign
  from unnest(rows) c
  join shops s on s.id = c.shop_id
$$;

-- `rows`: the changed contributions of counted orders, each with its `sign` (+1 added, −1
-- taken back); contributions an update left as they were have cancelled out already.
create function order_totals_apply_rows(rows order_delta[]) returns void language plpgsql as $$
begin
  -- Customers in (shop, customer) order, as every writer takes them: two writers never wait on
  -- each other in opposite orders.
  insert into customer_totals as t (shop_id, customer_id, order_count, first_order_at, last_order_at, amounts)
  select p.shop_id, p.customer_id, sum(p.n)::integer, coalesce(min(p.first_at), min(p.any_at)),
    coalesce(max(p.last_at), max(p.any_at)),
    jsonb_object_agg(p.cur, jsonb_build_object('amount', p.amount, 'orders', p.n))
  from (
    select d.shop_id, d.customer_id, d.cur, sum(d.sign) as n, sum(d.sign * d.amount) as amount,
      min(d.created_at) filter (where d.sign > 0) as first_at, max(d.created_at) filter (where d.sign > 0) as last_at,
      min(d.created_at) as any_at
    from order_deltas(rows) d group by 1, 2, 3
  ) p
  group by 1, 2
  order by 1, 2
  on conflict (shop_id, customer_id) do update set
    order_count = t.order_count + excluded.order_count,
    first_order_at = least(t.first_order_at, excluded.first_order_at),
    last_order_at = greatest(t.last_order_at, excluded.last_order_at),
    amounts = customer_amounts_add(t.amounts, excluded.amounts);

  -- A counted order gone (cancelled, unlinked, deleted): where it was the first or the last,
  -- that bound comes from the customer's orders again; a customer with none left has no row.
  -- The upsert above holds these rows' locks, so this statement's snapshot, taken after it,
  -- sees every order another writer of these customers committed.
  if exists (select 1 from unnest(rows) e where e.sign < 0) then
    update customer_totals t set
      first_order_at = case when t.first_order_at >= r.first_gone then coalesce((
        select min(o.created_at) from orders o where o.shop_id = t.shop_id and o.customer_id = t.customer_id
          and o.contract_id is not null and not o.test and o.cancelled_at is null), t.first_order_at)
        else t.first_order_at end,
      last_order_at = case when t.last_order_at <= r.last_gone then coalesce((
        select max(o.created_at) from orders o where o.shop_id = t.shop_id and o.customer_id = t.customer_id
          and o.contract_id is not null and not o.test and o.cancelled_at is null), t.last_order_at)
        else t.last_order_at end
    from (
      select d.shop_id, d.customer_id, min(d.created_at) as first_gone, max(d.created_at) as last_gone
      from order_deltas(rows) d where d.sign < 0 group by 1, 2
    ) r
    where t.shop_id = r.shop_id and t.customer_id = r.customer_id and t.order_count > 0
      and (t.first_order_at >= r.first_gone or t.last_order_at <= r.last_gone);
    delete from customer_totals t
    using (select distinct d.shop_id, d.customer_id from order_deltas(rows) d where d.sign < 0) r
    where t.shop_id = r.shop_id and t.customer_id = r.customer_id and t.order_count <= 0;
  end if;

  -- The delta's running totals per customer and currency, from its first month to its last.
  insert into ltv_months as l (shop_id, customer_id, currency_code, base_month, amounts, counts)
  select x.shop_id, x.customer_id, x.cur, min(x.m), array_agg(x.amount order by x.m), array_agg(x.n order by x.m)
  from (
    select g.shop_id, g.customer_id, g.cur, g.m,
      (sum(coalesce(pm.minor, 0)) over w)::bigint as amount, (sum(coalesce(pm.n, 0)) over w)::integer as n
    from (
      select s.shop_id, s.customer_id, s.cur, k.m
      from (
        select d.shop_id, d.customer_id, d.cur, min(d.month) as lo, max(d.month) as hi
        from order_deltas(rows) d group by 1, 2, 3
      ) s
      cross join lateral generate_series(s.lo, s.hi) k(m)
    ) g
    left join (
      select d.shop_id, d.customer_id, d.cur, d.month, sum(d.sign * d.minor) as minor, sum(d.sign) as n
      from order_deltas(rows) d group by 1, 2, 3, 4
    ) pm on pm.shop_id = g.shop_id and pm.customer_id = g.customer_id and pm.cur = g.cur and pm.month = g.m
    window w as (partition by g.shop_id, g.customer_id, g.cur order by g.m)
  ) x
  group by 1, 2, 3
  order by 1, 2, 3
  on conflict (shop_id, customer_id, currency_code) do update set
    base_month = least(l.base_month, excluded.base_month),
    amounts = ltv_running_add(l.base_month, l.amounts, excluded.base_month, excluded.amounts),
    counts = ltv_running_add(l.base_month, l.counts::bigint[], excluded.base_month, excluded.counts::bigint[])::integer[];
end $$;

-- What an order contributes while it counts (domain analytics: linked to a contract and a
-- customer, not a test, not cancelled): +1 and its net amount.
create function order_totals_after_orders() returns trigger language plpgsql as $$
declare
  rows order_delta[];
begin
  if tg_op = 'INSERT' then
    select array_agg(row(n.shop_id, n.customer_id, coalesce(n.currency_code, 'JPY'), n.created_at,
      coalesce(n.total_amount, 0) - n.refunded_amount, n.net_minor, 1)::order_delta)
    into rows
    from new_rows n
    where n.customer_id is not null and n.contract_id is not null and not n.test and n.cancelled_at is null;
  elsif tg_op = 'DELETE' then
    select array_agg(row(o.shop_id, o.customer_id, coalesce(o.currency_code, 'JPY'), o.created_at,
      coalesce(o.total_amount, 0) - o.refunded_amount, o.net_minor, -1)::order_delta)
    into rows
    from old_rows o
    where o.customer_id is not null and o.contract_id is not null and not o.test and o.cancelled_at is null;
  else
    -- Old and new contributions that are equal (an update that changed nothing counted) cancel.
    select array_agg(row(c.shop_id, c.customer_id, c.cur, c.created_at, c.amount, c.minor, c.sign)::order_delta)
    into rows
    from (
      select b.shop_id, b.customer_id, b.cur, b.created_at, b.amount, b.minor, sum(b.sign)::integer as sign
      from (
        select o.shop_id, o.customer_id, coalesce(o.currency_code, 'JPY') as cur, o.created_at,
          coalesce(o.total_amount, 0) - o.refunded_amount as amount, o.net_minor as minor, -1 as sign
        from old_rows o
        where o.customer_id is not null and o.contract_id is not null and not o.test and o.cancelled_at is null
        union all
        select n.shop_id, n.customer_id, coalesce(n.currency_code, 'JPY'), n.created_at,
          coalesce(n.total_amount, 0) - n.refunded_amount, n.net_minor, 1
        from new_rows n
        where n.customer_id is not null and n.contract_id is not null and not n.test and n.cancelled_at is null
      ) b
      group by 1, 2, 3, 4, 5, 6
      having sum(b.sign) <> 0
    ) c;
  end if;
  if rows is not null then
    perform order_totals_apply_rows(rows);
  end if;
  return null;
end $$;

create trigger orders_totals_insert after insert on orders referencing new table as new_rows
  for each statement execute function order_totals_after_orders();
create trigger orders_totals_update after update on orders referencing old table as old_rows new table as new_rows
  for each statement execute function order_totals_after_orders();
create trigger orders_totals_delete after delete on orders referencing old table as old_rows
  for each statement execute function order_totals_after_orders();

-- The billing run's due and overdue contracts (runs-repo dueContracts, countOverdueContracts):
-- the ACTIVE ones by next billing date. contracts_next_billing_idx holds every contract, ended
-- ones with the dates they ended on, so "due before today" read a shop's whole history of
-- ended contracts on every run (test/order-write-growth.test.ts).
create index contracts_active_billing_idx on subscription_contracts (shop_id, next_billing_date, id)
  where status = 'ACTIVE';

-- The cycles not settled yet (in dunning, being charged, awaiting 3-D Secure), by contract: the
-- run's overdue count and 請求予定 leave those contracts out. Without it the anti-join read the
-- shop's whole billing history on every run (test/order-write-growth.test.ts).
create index billing_cycles_unsettled_idx on billing_cycles (shop_id, contract_id)
  where status in ('retry_scheduled', 'attempting', 'challenged');

-- The report rollups' order and cohort triggers (0018, 0027, 0028) hand their rows over the same
-- way, as arrays of a row type instead of a JSON document built and parsed per statement: the
-- definitions are those migrations', only the passing changes.
create type report_order_row as (
  shop_id bigint, contract_id bigint, created_at timestamptz, currency_code text, total_amount numeric,
  test boolean, sign integer
);

create or replace function report_orders_apply_rows(rows report_order_row[]) returns void language plpgsql as $$
begin
  insert into report_daily_sales as r (shop_id, day, currency_code, test, slot, amount, orders)
  select o.shop_id, (o.created_at at time zone s.iana_timezone)::date, coalesce(o.currency_code, s.currency_code),
    o.test, report_slot(), sum(o.sign * coalesce(o.total_amount, 0)), sum(o.sign)::int
  from unnest(rows) o
  join shops s on s.id = o.shop_id
  group by 1, 2, 3, 4
  having sum(o.sign) <> 0 or sum(o.sign * coalesce(o.total_amount, 0)) <> 0
  order by 1, 2, 3, 4
  on conflict (shop_id, day, currency_code, test, slot) do update set amount = r.amount + excluded.amount,
    orders = r.orders + excluded.orders;

  -- (joined to shops: orders deleted with their shop must not make rows for it)
  insert into report_contracts as r (shop_id, contract_id, orders, test_orders)
  select o.shop_id, o.contract_id, coalesce(sum(o.sign) filter (where not o.test), 0)::int, sum(o.sign)::int
  from unnest(rows) o
  join shops s on s.id = o.shop_id
  group by 1, 2
  having sum(o.sign) <> 0
  order by 1, 2
  on conflict (shop_id, contract_id) do update set orders = r.orders + excluded.orders,
    test_orders = r.test_orders + excluded.test_orders;
end $$;

-- An order counts (sales, persistence) when it belongs to a contract and is not cancelled; its
-- amount is net of refunds (0028).
create or replace function report_orders_apply() returns trigger language plpgsql as $$
declare
  rows report_order_row[];
begin
  if tg_op = 'INSERT' then
    select array_agg(row(n.shop_id, n.contract_id, n.created_at, n.currency_code,
      coalesce(n.total_amount, 0) - n.refunded_amount, n.test, 1)::report_order_row)
    into rows from new_orders n where n.contract_id is not null and n.cancelled_at is null;
  elsif tg_op = 'UPDATE' then
    select array_agg(x) into rows from (
      select row(n.shop_id, n.contract_id, n.created_at, n.currency_code,
        coalesce(n.total_amount, 0) - n.refunded_amount, n.test, 1)::report_order_row as x
      from new_orders n where n.contract_id is not null and n.cancelled_at is null
      union all
      select row(o.shop_id, o.contract_id, o.created_at, o.currency_code,
        coalesce(o.total_amount, 0) - o.refunded_amount, o.test, -1)::report_order_row
      from old_orders o where o.contract_id is not null and o.cancelled_at is null
    ) t;
  else
    select array_agg(row(o.shop_id, o.contract_id, o.created_at, o.currency_code,
      coalesce(o.total_amount, 0) - o.refunded_amount, o.test, -1)::report_order_row)
    into rows from old_orders o where o.contract_id is not null and o.cancelled_at is null;
  end if;
  if rows is not null then
    perform report_orders_apply_rows(rows);
  end if;
  return null;
end $$;
drop function report_orders_apply_rows(jsonb);

create type report_cohort_row as (
  shop_id bigint, started_on date, orders integer, test_orders integer, plan_ids bigint[], source text,
  medium text, sign integer
);

create or replace function report_cohort_dims_add(rows report_cohort_row[]) returns void language plpgsql as $$
begin
  insert into report_cohort_dims as h (shop_id, with_test, month, bucket, plan_ids, source, medium, slot, contracts)
  select d.shop_id, v.with_test, date_trunc('month', d.started_on)::date,
    least(case when v.with_test then d.test_orders else d.orders end, 12)::smallint,
    coalesce(d.plan_ids, '{}'), d.source, d.medium, report_slot(), sum(d.sign)::int
  from unnest(rows) d
  join shops s on s.id = d.shop_id, (values (false), (true)) v(with_test)
  where d.started_on is not null
  group by 1, 2, 3, 4, 5, 6, 7
  having sum(d.sign) <> 0
  order by 1, 2, 3, 4, 5, 6, 7
  on conflict (shop_id, with_test, month, bucket, plan_ids, source, medium, slot)
  do update set contracts = h.contracts + excluded.contracts;
end $$;

create or replace function report_cohort_dims_apply() returns trigger language plpgsql as $$
declare
  rows report_cohort_row[];
begin
  if tg_op = 'INSERT' then
    select array_agg(row(n.shop_id, n.started_on, n.orders, n.test_orders, n.plan_ids, n.source, n.medium, 1)::report_cohort_row)
    into rows from new_rows n where n.started_on is not null;
  else
    select array_agg(x) into rows from (
      select row(n.shop_id, n.started_on, n.orders, n.test_orders, n.plan_ids, n.source, n.medium, 1)::report_cohort_row as x
      from new_rows n where n.started_on is not null
      union all
      select row(o.shop_id, o.started_on, o.orders, o.test_orders, o.plan_ids, o.source, o.medium, -1)::report_cohort_row
      from old_rows o where o.started_on is not null
    ) t;
  end if;
  if rows is not null then
    perform report_cohort_dims_add(rows);
  end if;
  return null;
end $$;
drop function report_cohort_dims_add(jsonb);

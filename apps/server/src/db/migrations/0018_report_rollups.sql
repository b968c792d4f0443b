-- Reports (issue 14, ADR 0015): per shop-local day rollups of the facts, kept exact by
-- statement-level triggers on the tables the facts live in, so a report over a year reads a
-- few hundred rows instead of scanning the history, and a late fact (a sync that learns of a
-- contract made last month, an order cancelled today) updates the day it happened on, in the
-- same transaction that wrote it. The measures are defined in packages/domain/src/analytics
-- (and docs/analytics.md); the SQL below is that definition over the tables.
--
-- Rows are spread over 8 slots per day (by backend pid) so concurrent writers (the billing
-- engine settling many contracts at once) do not queue on one row lock; readers sum the slots.

create table report_daily (
  shop_id bigint not null references shops(id) on delete cascade,
  day date not null,                          -- the shop's local calendar day
  slot smallint not null,
  created integer not null default 0,         -- contracts started
  cancelled integer not null default 0,       -- moves to CANCELLED
  paused integer not null default 0,          -- moves to PAUSED
  failed integer not null default 0,          -- failed charges (+ contracts first seen FAILED)
  active_delta integer not null default 0,    -- moves into ACTIVE minus moves out of ACTIVE
  primary key (shop_id, day, slot)
);

create table report_daily_sales (
  shop_id bigint not null references shops(id) on delete cascade,
  day date not null,
  currency_code text not null,
  -- test orders are kept apart: left out of the figures, except for a shop flagged test_shop
  -- (a development store, where every order is a test order: spec §6)
  test boolean not null,
  slot smallint not null,
  amount numeric(24, 4) not null default 0,
  orders integer not null default 0,
  primary key (shop_id, day, currency_code, test, slot)
);

-- One row per contract: its start day (the cohort) and how many counted orders it has; the
-- persistence table is one scan of this by (shop, start day).
create table report_contracts (
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  started_on date,                            -- null until the contract's `created` event
  orders integer not null default 0,          -- counted orders, test orders not included
  test_orders integer not null default 0,     -- counted orders, test orders included
  primary key (shop_id, contract_id)
);
create index report_contracts_cohort_idx on report_contracts (shop_id, started_on) include (orders, contract_id);

create function report_slot() returns smallint language sql volatile as $$
  select (pg_backend_pid() % 8)::smallint
$$;

create function report_events_apply() returns trigger language plpgsql as $$
begin
  insert into report_daily as r (shop_id, day, slot, created, cancelled, paused, failed, active_delta)
  select e.shop_id, (e.occurred_at at time zone s.iana_timezone)::date, report_slot(),
    count(*) filter (where e.type = 'created'),
    count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'CANCELLED'),
    count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'PAUSED'),
    count(*) filter (where e.type = 'billing_failed'
      or (e.type = 'status_changed' and e.payload->>'to' = 'FAILED' and e.payload->>'inferred' = 'true')),
    (count(*) filter (where e.type = 'created')
      + count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'ACTIVE')
      - count(*) filter (where e.type = 'status_changed' and e.payload->>'from' = 'ACTIVE'))::int
  from new_events e join shops s on s.id = e.shop_id
  where e.type in ('created', 'status_changed', 'billing_failed')
  group by 1, 2
  order by 1, 2
  on conflict (shop_id, day, slot) do update set created = r.created + excluded.created,
    cancelled = r.cancelled + excluded.cancelled, paused = r.paused + excluded.paused,
    failed = r.failed + excluded.failed, active_delta = r.active_delta + excluded.active_delta;

  insert into report_contracts as r (shop_id, contract_id, started_on)
  select e.shop_id, e.contract_id, min((e.occurred_at at time zone s.iana_timezone)::date)
  from new_events e join shops s on s.id = e.shop_id
  where e.type = 'created'
  group by 1, 2
  order by 1, 2
  on conflict (shop_id, contract_id) do update set started_on = least(r.started_on, excluded.started_on);
  return null;
end $$;

create trigger contract_events_report after insert on contract_events
  referencing new table as new_events for each statement execute function report_events_apply();

-- An order counts (sales, persistence) when it belongs to a contract and is not cancelled (a
-- cancelled order is refunded); test orders are counted apart (see report_daily_sales). `sign` adds the new row's part and takes
-- back the old row's, so an update (linked to its contract later, cancelled, …) moves the
-- figures of the day the order was created on.
create function report_orders_apply_rows(rows jsonb) returns void language plpgsql as $$
begin
  insert into report_daily_sales as r (shop_id, day, currency_code, test, slot, amount, orders)
  select o.shop_id, (o.created_at at time zone s.iana_timezone)::date, coalesce(o.currency_code, s.currency_code),
    o.test, report_slot(), sum(o.sign * coalesce(o.total_amount, 0)), sum(o.sign)::int
  from jsonb_to_recordset(rows) as o(shop_id bigint, contract_id bigint, created_at timestamptz,
    currency_code text, total_amount numeric, test boolean, sign int)
  join shops s on s.id = o.shop_id
  group by 1, 2, 3, 4
  having sum(o.sign) <> 0 or sum(o.sign * coalesce(o.total_amount, 0)) <> 0
  order by 1, 2, 3, 4
  on conflict (shop_id, day, currency_code, test, slot) do update set amount = r.amount + excluded.amount,
    orders = r.orders + excluded.orders;

  -- (joined to shops: orders deleted with their shop must not make rows for it)
  insert into report_contracts as r (shop_id, contract_id, orders, test_orders)
  select o.shop_id, o.contract_id, coalesce(sum(o.sign) filter (where not o.test), 0)::int, sum(o.sign)::int
  from jsonb_to_recordset(rows) as o(shop_id bigint, contract_id bigint, test boolean, sign int)
  join shops s on s.id = o.shop_id
  group by 1, 2
  having sum(o.sign) <> 0
  order by 1, 2
  on conflict (shop_id, contract_id) do update set orders = r.orders + excluded.orders,
    test_orders = r.test_orders + excluded.test_orders;
end $$;

create function report_orders_apply() returns trigger language plpgsql as $$
declare
  rows jsonb;
begin
  if tg_op = 'INSERT' then
    select coalesce(jsonb_agg(jsonb_build_object('shop_id', n.shop_id, 'contract_id', n.contract_id,
      'created_at', n.created_at, 'currency_code', n.currency_code, 'total_amount', n.total_amount, 'test', n.test, 'sign', 1)), '[]')
    into rows from new_orders n where n.contract_id is not null and n.cancelled_at is null;
  elsif tg_op = 'UPDATE' then
    select coalesce(jsonb_agg(x), '[]') into rows from (
      select jsonb_build_object('shop_id', n.shop_id, 'contract_id', n.contract_id, 'created_at', n.created_at,
        'currency_code', n.currency_code, 'total_amount', n.total_amount, 'test', n.test, 'sign', 1) as x
      from new_orders n where n.contract_id is not null and n.cancelled_at is null
      union all
      select jsonb_build_object('shop_id', o.shop_id, 'contract_id', o.contract_id, 'created_at', o.created_at,
        'currency_code', o.currency_code, 'total_amount', o.total_amount, 'test', o.test, 'sign', -1)
      from old_orders o where o.contract_id is not null and o.cancelled_at is null
    ) t;
  else
    select coalesce(jsonb_agg(jsonb_build_object('shop_id', o.shop_id, 'contract_id', o.contract_id,
      'created_at', o.created_at, 'currency_code', o.currency_code, 'total_amount', o.total_amount, 'test', o.test, 'sign', -1)), '[]')
    into rows from old_orders o where o.contract_id is not null and o.cancelled_at is null;
  end if;
  if rows <> '[]'::jsonb then
    perform report_orders_apply_rows(rows);
  end if;
  return null;
end $$;

create trigger orders_report_insert after insert on orders
  referencing new table as new_orders for each statement execute function report_orders_apply();
create trigger orders_report_update after update on orders
  referencing old table as old_orders new table as new_orders for each statement execute function report_orders_apply();
create trigger orders_report_delete after delete on orders
  referencing old table as old_orders for each statement execute function report_orders_apply();

-- The history already written: rolled up once, as the triggers would have.
insert into report_daily (shop_id, day, slot, created, cancelled, paused, failed, active_delta)
select e.shop_id, (e.occurred_at at time zone s.iana_timezone)::date, 0,
  count(*) filter (where e.type = 'created'),
  count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'CANCELLED'),
  count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'PAUSED'),
  count(*) filter (where e.type = 'billing_failed'
    or (e.type = 'status_changed' and e.payload->>'to' = 'FAILED' and e.payload->>'inferred' = 'true')),
  (count(*) filter (where e.type = 'created')
    + count(*) filter (where e.type = 'status_changed' and e.payload->>'to' = 'ACTIVE')
    - count(*) filter (where e.type = 'status_changed' and e.payload->>'from' = 'ACTIVE'))::int
from contract_events e join shops s on s.id = e.shop_id
where e.type in ('created', 'status_changed', 'billing_failed')
group by 1, 2;

insert into report_contracts (shop_id, contract_id, started_on)
select e.shop_id, e.contract_id, min((e.occurred_at at time zone s.iana_timezone)::date)
from contract_events e join shops s on s.id = e.shop_id
where e.type = 'created'
group by 1, 2;

select report_orders_apply_rows(coalesce((
  select jsonb_agg(jsonb_build_object('shop_id', o.shop_id, 'contract_id', o.contract_id, 'created_at', o.created_at,
    'currency_code', o.currency_code, 'total_amount', o.total_amount, 'test', o.test, 'sign', 1))
  from orders o where o.contract_id is not null and o.cancelled_at is null), '[]'));

-- The persistence table without filters reads a histogram: per cohort month, how many contracts
-- have 0, 1, … 12 or more counted orders (twice: without and with test orders), kept from
-- report_contracts by its own statement-level triggers, in slots like the daily rows.
create table report_cohorts (
  shop_id bigint not null references shops(id) on delete cascade,
  month date not null,
  with_test boolean not null,
  bucket smallint not null,                   -- least(orders, 12)
  slot smallint not null,
  contracts integer not null default 0,
  primary key (shop_id, month, with_test, bucket, slot)
);

create function report_cohorts_apply() returns trigger language plpgsql as $$
begin
  insert into report_cohorts as h (shop_id, month, with_test, bucket, slot, contracts)
  select d.shop_id, d.month, d.with_test, d.bucket, report_slot(), sum(d.sign)::int
  from (
    select n.shop_id, date_trunc('month', n.started_on)::date as month, v.with_test,
      least(case when v.with_test then n.test_orders else n.orders end, 12)::smallint as bucket, 1 as sign
    from new_rows n, (values (false), (true)) v(with_test) where n.started_on is not null
    union all
    select o.shop_id, date_trunc('month', o.started_on)::date, v.with_test,
      least(case when v.with_test then o.test_orders else o.orders end, 12)::smallint, -1
    from old_rows o, (values (false), (true)) v(with_test)
    where o.started_on is not null
  ) d
  group by 1, 2, 3, 4 having sum(d.sign) <> 0
  order by 1, 2, 3, 4
  on conflict (shop_id, month, with_test, bucket, slot) do update set contracts = h.contracts + excluded.contracts;
  return null;
end $$;

create function report_cohorts_insert() returns trigger language plpgsql as $$
begin
  insert into report_cohorts as h (shop_id, month, with_test, bucket, slot, contracts)
  select d.shop_id, d.month, d.with_test, d.bucket, report_slot(), sum(d.sign)::int
  from (
    select n.shop_id, date_trunc('month', n.started_on)::date as month, v.with_test,
      least(case when v.with_test then n.test_orders else n.orders end, 12)::smallint as bucket, 1 as sign
    from new_rows n, (values (false), (true)) v(with_test) where n.started_on is not null
  ) d
  group by 1, 2, 3, 4 having sum(d.sign) <> 0
  order by 1, 2, 3, 4
  on conflict (shop_id, month, with_test, bucket, slot) do update set contracts = h.contracts + excluded.contracts;
  return null;
end $$;

create trigger report_contracts_cohorts_insert after insert on report_contracts
  referencing new table as new_rows for each statement execute function report_cohorts_insert();
create trigger report_contracts_cohorts_update after update on report_contracts
  referencing old table as old_rows new table as new_rows for each statement execute function report_cohorts_apply();

-- What was rolled up above, into the histogram.
insert into report_cohorts (shop_id, month, with_test, bucket, slot, contracts)
select r.shop_id, date_trunc('month', r.started_on)::date, v.with_test,
  least(case when v.with_test then r.test_orders else r.orders end, 12), 0, count(*)
from report_contracts r, (values (false), (true)) v(with_test)
where r.started_on is not null
group by 1, 2, 3, 4;

-- The persistence table filtered by plan starts from the contracts with a line on the plan.
create index subscription_lines_plan_idx on subscription_lines (shop_id, selling_plan_id, contract_id)
  where selling_plan_id is not null;

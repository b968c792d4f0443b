-- The persistence table's filters (issue 14: selling plan group / plan, source / medium) read a
-- histogram like the unfiltered table (report_cohorts, 0018) instead of joining lines, plans and
-- attributions to every contract of the range (docs/analytics.md, "the cohort rule"). Each
-- contract carries its two acquisition dimensions on report_contracts, kept by statement-level
-- triggers like the rest of the rollups:
--
--   plan_ids        the selling plans of its lines when the mirror first wrote it on a plan (its
--                   start plans: a later move to another plan keeps it where it started),
--                   sorted, distinct; null while none is known.
--   source, medium  its attribution (contract_attributions, which the sweep writes after the
--                   contract, often days later); '' = direct / none, as in traffic_hits.
--
-- report_cohort_dims counts contracts per (month, with_test, bucket) and their exact dimensions
-- (plan set, source, medium): every contract is in one row, so any filter, and any combination
-- of them, is a sum over the rows it keeps, each contract counted once.

alter table report_contracts
  add column plan_ids bigint[],
  add column source text not null default '',
  add column medium text not null default '';

create table report_cohort_dims (
  shop_id bigint not null references shops(id) on delete cascade,
  with_test boolean not null,
  month date not null,
  bucket smallint not null,                   -- least(orders, 12)
  plan_ids bigint[] not null,                 -- '{}' while no plan is known
  source text not null,
  medium text not null,
  slot smallint not null,
  contracts integer not null default 0,
  primary key (shop_id, with_test, month, bucket, plan_ids, source, medium, slot)
);

-- What is already there, before the triggers exist. Contracts written before this migration
-- start on the plans of their lines now (the mirror kept no older lines).
update report_contracts r set plan_ids = l.plan_ids
from (select shop_id, contract_id, array_agg(distinct selling_plan_id order by selling_plan_id) as plan_ids
      from subscription_lines where selling_plan_id is not null group by 1, 2) l
where r.shop_id = l.shop_id and r.contract_id = l.contract_id;

update report_contracts r set source = a.source, medium = a.medium
from contract_attributions a
where r.shop_id = a.shop_id and r.contract_id = a.contract_id;

insert into report_cohort_dims (shop_id, with_test, month, bucket, plan_ids, source, medium, slot, contracts)
select r.shop_id, v.with_test, date_trunc('month', r.started_on)::date,
  least(case when v.with_test then r.test_orders else r.orders end, 12), coalesce(r.plan_ids, '{}'),
  r.source, r.medium, 0, count(*)
from report_contracts r, (values (false), (true)) v(with_test)
where r.started_on is not null
group by 1, 2, 3, 4, 5, 6, 7;

-- The histogram follows report_contracts: a new row adds its part, an update (an order counted,
-- a start day learned, a plan or an attribution) takes back the old row's part and adds the new.
-- `rows` are report_contracts rows as json with a `sign` (as report_orders_apply_rows, 0018).
create function report_cohort_dims_add(rows jsonb) returns void language plpgsql as $$
begin
  insert into report_cohort_dims as h (shop_id, with_test, month, bucket, plan_ids, source, medium, slot, contracts)
  select d.shop_id, v.with_test, date_trunc('month', d.started_on)::date,
    least(case when v.with_test then d.test_orders else d.orders end, 12)::smallint,
    coalesce(d.plan_ids, '{}'), d.source, d.medium, report_slot(), sum(d.sign)::int
  from jsonb_to_recordset(rows) as d(shop_id bigint, started_on date, orders int, test_orders int,
    plan_ids bigint[], source text, medium text, sign int)
  join shops s on s.id = d.shop_id, (values (false), (true)) v(with_test)
  where d.started_on is not null
  group by 1, 2, 3, 4, 5, 6, 7
  having sum(d.sign) <> 0
  order by 1, 2, 3, 4, 5, 6, 7
  on conflict (shop_id, with_test, month, bucket, plan_ids, source, medium, slot)
  do update set contracts = h.contracts + excluded.contracts;
end $$;

create function report_cohort_dims_apply() returns trigger language plpgsql as $$
declare
  rows jsonb;
begin
  if tg_op = 'INSERT' then
    select jsonb_agg(to_jsonb(n) || '{"sign": 1}') into rows from new_rows n where n.started_on is not null;
  else
    select jsonb_agg(x) into rows from (
      select to_jsonb(n) || '{"sign": 1}' as x from new_rows n where n.started_on is not null
      union all
      select to_jsonb(o) || '{"sign": -1}' from old_rows o where o.started_on is not null
    ) t;
  end if;
  if rows is not null then
    perform report_cohort_dims_add(rows);
  end if;
  return null;
end $$;

create trigger report_contracts_dims_insert after insert on report_contracts
  referencing new table as new_rows for each statement execute function report_cohort_dims_apply();
create trigger report_contracts_dims_update after update on report_contracts
  referencing old table as old_rows new table as new_rows for each statement execute function report_cohort_dims_apply();

-- Start plans: the first lines written with a plan (the mirror writes lines only by insert:
-- upsertContracts replaces a contract's lines). Contracts already on a plan are passed over
-- before any row is touched, so a re-sync takes no lock on their report rows.
create function report_lines_apply() returns trigger language plpgsql as $$
begin
  insert into report_contracts as r (shop_id, contract_id, plan_ids)
  select l.shop_id, l.contract_id, array_agg(distinct l.selling_plan_id order by l.selling_plan_id)
  from new_lines l join shops s on s.id = l.shop_id
  where l.selling_plan_id is not null
    and not exists (select 1 from report_contracts x
      where x.shop_id = l.shop_id and x.contract_id = l.contract_id and x.plan_ids is not null)
  group by 1, 2
  order by 1, 2
  on conflict (shop_id, contract_id) do update set plan_ids = excluded.plan_ids where r.plan_ids is null;
  return null;
end $$;

create trigger subscription_lines_report after insert on subscription_lines
  referencing new table as new_lines for each statement execute function report_lines_apply();

-- The attribution follows contract_attributions: the sweep inserts it (after the contract, so
-- the contract moves from direct to its channel); an update or a delete moves it again.
create function report_attributions_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update report_contracts r set source = '', medium = ''
    from old_rows o join shops s on s.id = o.shop_id
    where r.shop_id = o.shop_id and r.contract_id = o.contract_id and (r.source <> '' or r.medium <> '');
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into report_contracts as r (shop_id, contract_id, source, medium)
    select n.shop_id, n.contract_id, n.source, n.medium
    from new_rows n join shops s on s.id = n.shop_id
    order by 1, 2
    on conflict (shop_id, contract_id) do update set source = excluded.source, medium = excluded.medium
    where r.source <> excluded.source or r.medium <> excluded.medium;
  end if;
  return null;
end $$;

create trigger contract_attributions_report_insert after insert on contract_attributions
  referencing new table as new_rows for each statement execute function report_attributions_apply();
create trigger contract_attributions_report_update after update on contract_attributions
  referencing old table as old_rows new table as new_rows for each statement execute function report_attributions_apply();
create trigger contract_attributions_report_delete after delete on contract_attributions
  referencing old table as old_rows for each statement execute function report_attributions_apply();

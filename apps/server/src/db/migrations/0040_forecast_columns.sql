-- 出荷予定 (issue 25, ADR 0040): what the forecast groups contracts by, as plain columns the
-- database derives from the contract's own JSON on every write (no trigger, no app code: a
-- generated column cannot drift from its source), and carried by the index of ACTIVE contracts
-- by next billing date, so the forecast of a 100,000-contract shop is an index-only scan instead
-- of reading every row's jsonb. Billing's due-contract scans use the same index as before.
alter table subscription_contracts
  add column delivery_slot text generated always as
    (jsonb_path_query_first(custom_attributes, '$[*] ? (@.key == "配送時間帯").value') #>> '{}') stored,
  add column delivery_promised text generated always as
    (jsonb_path_query_first(custom_attributes, '$[*] ? (@.key == "お届け予定日").value') #>> '{}') stored,
  add column delivery_province text generated always as
    (delivery_method -> 'address' ->> 'provinceCode') stored,
  add column policy_anchors text generated always as ((billing_policy -> 'anchors')::text) stored,
  add column policy_max_cycles int generated always as ((billing_policy ->> 'maxCycles')::int) stored;

drop index contracts_active_billing_idx;
create index contracts_active_billing_idx on subscription_contracts (shop_id, next_billing_date, id)
  include (interval, interval_count, policy_anchors, policy_max_cycles, created_at,
           delivery_promised, delivery_slot, delivery_province)
  where status = 'ACTIVE';

-- The lines' pricing policies of each contract as the platform had them at one state of the
-- contract (its revision and updatedAt): [{id, currentPrice, pricingPolicy}]. The first sync's
-- bulk export fills them (free of rate-limit points), the billing engine refreshes them when it
-- has to read them and carries them across its own writes. They are trusted for a charge only
-- while the platform's revision and updatedAt are still those (nothing changed the contract
-- since): a contract upsert never touches these columns, so any other change leaves them stale
-- and the next charge reads the policies again.
alter table subscription_contracts
  add column line_pricing jsonb,
  add column line_pricing_revision text,
  add column line_pricing_updated_at timestamptz;

-- An attempt's outcome finds its cycle by attempt id or by idempotency key alone (every key
-- names its contract), so the outcome read need not ask the platform for the contract.
create index billing_cycles_key_idx on billing_cycles (shop_id, idempotency_key);

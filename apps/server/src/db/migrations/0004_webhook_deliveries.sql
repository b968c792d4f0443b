-- Webhook deliveries already applied. Deliveries are at-least-once, so the id of each one is
-- recorded in the same transaction that applies it: a redelivery finds its row and changes
-- nothing, and a failed apply records nothing so the platform's retry gets another chance.
create table webhook_deliveries (
  shop_id bigint not null references shops(id) on delete cascade,
  webhook_id text not null,                   -- X-Shopify-Webhook-Id
  topic text not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  primary key (shop_id, webhook_id)
);
-- Old rows can be pruned by age (the platform retries for about 4 hours).
create index webhook_deliveries_received_idx on webhook_deliveries (received_at);

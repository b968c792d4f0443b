-- Webhook headers are not signed (only the body is), so a delivery is bound to its shop by
-- what the body says (features/webhooks/binding.ts).
--
-- The shop's own platform id (the number of gid://shopify/Shop/N), written by the sync from
-- the shop's details: app/uninstalled and the compliance payloads name their shop by it, and
-- a body naming another shop's id is refused. Null until the shop's first sync.
alter table shops add column platform_id bigint;

-- X-Shopify-Event-Id: the platform sends one event once per subscription, each delivery with
-- its own webhook id; the event id is the same. Keyed with the topic so two topics of one
-- change are never taken for one another.
alter table webhook_deliveries add column event_id text;
create unique index webhook_deliveries_event_idx on webhook_deliveries (shop_id, topic, event_id)
  where event_id is not null;

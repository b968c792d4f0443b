-- Variant and customer searches find contract ids first (from lines or customers) and then
-- need each contract's sort key and list columns. Covering them in an index on the primary
-- key turns those hundreds of heap visits into index-only probes.
create index contracts_list_covering_idx on subscription_contracts (shop_id, id)
  include (next_billing_date, status, customer_id);

-- Without a date range the list is newest first (id desc): the primary key serves "all", and
-- this index serves one status, both as ordered scans that stop at the page end.
create index contracts_status_id_idx on subscription_contracts (shop_id, status, id);

-- A filter on several statuses walks the next-billing order and skips other statuses; with
-- status (and customer_id) in the index that skip needs no heap visit.
drop index contracts_next_billing_idx;
create index contracts_next_billing_idx on subscription_contracts (shop_id, next_billing_date, id)
  include (status, customer_id);

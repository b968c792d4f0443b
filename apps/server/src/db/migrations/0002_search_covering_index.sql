-- Variant and customer searches find contract ids first (from lines or customers) and then
-- need each contract's sort key and list columns. Covering them in an index on the primary
-- key turns those hundreds of heap visits into index-only probes.
create index contracts_list_covering_idx on subscription_contracts (shop_id, id)
  include (next_billing_date, status, customer_id);

-- Without a date range the list is newest first (id desc): the primary key serves "all", and
-- this index serves one status, both as ordered scans that stop at the page end.
create index contracts_status_id_idx on subscription_contracts (shop_id, status, id);

-- The list shows each contract's customer name. Keeping the name on the contract row (and in
-- the covering indexes) lets a page be read from one index without a customers lookup per
-- row. Writers keep it in step: the contract upsert copies it from customers, and a
-- customer upsert rewrites it on that customer's contracts when the name changed.
alter table subscription_contracts add column customer_display_name text not null default '';

update subscription_contracts c set customer_display_name = cu.display_name
from customers cu where cu.shop_id = c.shop_id and cu.id = c.customer_id;

drop index contracts_next_billing_idx;
create index contracts_next_billing_idx on subscription_contracts (shop_id, next_billing_date, id)
  include (status, customer_id, customer_display_name);
drop index contracts_list_covering_idx;
create index contracts_list_covering_idx on subscription_contracts (shop_id, id)
  include (next_billing_date, status, customer_id, customer_display_name);

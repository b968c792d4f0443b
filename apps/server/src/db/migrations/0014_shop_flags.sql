-- Per-shop feature flags (spec section 6): behaviour that varies by shop, set by an operator.
-- A flag without a row is off. Kept when a shop uninstalls and reinstalls (the shop row stays).
create table shop_flags (
  shop_id bigint not null references shops(id) on delete cascade,
  flag text not null check (flag in (
    'test_shop', 'two_customer_groups', 'parent_products', 'template_test', 'delivery_prep_days'
  )),
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (shop_id, flag)
);

-- The app's mirror of each shop's subscription data, filled from the platform's Admin API
-- (full sync, then webhooks). Platform ids are stored as their numeric part (bigint); the
-- GID is rebuilt at the platform boundary. Every table is keyed by shop first: all reads
-- are per shop, and shop isolation is enforced by every query carrying shop_id.

create table shops (
  id bigserial primary key,
  domain text not null unique,                -- myshopify domain, e.g. teiki-demo.myshopify.com
  name text not null default '',
  secret_hash bytea,                          -- sha256 of the standalone `secret`; null = secret login off
  access_token text,                          -- offline Admin API token
  scopes text[] not null default '{}',
  currency_code text not null default 'JPY',
  iana_timezone text not null default 'Asia/Tokyo',
  primary_domain_url text,
  shopify_plan text,
  app_plan jsonb,                             -- the app's own active subscription as last seen
  installed_at timestamptz not null default now(),
  synced_at timestamptz,
  uninstalled_at timestamptz
);

create table customers (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  first_name text,
  last_name text,
  display_name text not null default '',
  -- family name + given name without spaces, lower-cased: serves prefix search on names
  name_key text not null default '',
  email text,
  phone text,                                 -- E.164 as the platform gives it
  -- digits of the phone reversed: a leading-0-stripped national number is a suffix of the
  -- E.164 digits, and a suffix search becomes an index-friendly prefix search when reversed
  phone_rev text,
  default_address jsonb,
  created_at timestamptz,
  updated_at timestamptz,
  primary key (shop_id, id)
);
create index customers_email_idx on customers (shop_id, lower(email) text_pattern_ops);
create index customers_phone_rev_idx on customers (shop_id, phone_rev text_pattern_ops);
create index customers_name_key_idx on customers (shop_id, name_key text_pattern_ops);
create index customers_first_name_idx on customers (shop_id, lower(first_name) text_pattern_ops);

create table products (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  title text not null,
  handle text,
  status text,
  image_url text,
  updated_at timestamptz,
  primary key (shop_id, id)
);

create table product_variants (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  product_id bigint not null,
  title text not null,
  sku text,
  price numeric(20, 4),
  primary key (shop_id, id)
);

create table selling_plan_groups (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  name text not null,
  merchant_code text,
  product_variants_count integer not null default 0,
  products_count integer not null default 0,
  created_at timestamptz,
  primary key (shop_id, id)
);

create table selling_plans (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  group_id bigint not null,
  name text not null,
  description text,
  category text,
  options text[] not null default '{}',
  billing_policy jsonb,
  delivery_policy jsonb,
  pricing_policies jsonb not null default '[]',
  primary key (shop_id, id),
  foreign key (shop_id, group_id) references selling_plan_groups(shop_id, id) on delete cascade
);

create table subscription_contracts (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  status text not null check (status in ('ACTIVE', 'FAILED', 'PAUSED', 'EXPIRED', 'CANCELLED')),
  customer_id bigint not null,
  next_billing_date timestamptz,
  currency_code text not null default 'JPY',
  interval text check (interval in ('DAY', 'WEEK', 'MONTH', 'YEAR')),
  interval_count integer,
  billing_policy jsonb,
  delivery_policy jsonb,
  delivery_price numeric(20, 4),
  delivery_method jsonb,
  payment_method jsonb,
  custom_attributes jsonb not null default '[]',
  note text,
  last_payment_status text,
  origin_order_id bigint,
  revision_id text,
  order_count integer not null default 0,
  created_at timestamptz not null,
  -- the platform's updatedAt of the state we hold: a webhook or sync carrying an older one
  -- never overwrites a newer row
  updated_at timestamptz not null,
  primary key (shop_id, id)
);
-- The list orders by (next_billing_date, id): one ordered index scan answers "all" and
-- date-range searches without sorting; the status-leading index answers one-status filters.
create index contracts_next_billing_idx on subscription_contracts (shop_id, next_billing_date, id);
create index contracts_status_next_billing_idx on subscription_contracts (shop_id, status, next_billing_date, id);
create index contracts_customer_idx on subscription_contracts (shop_id, customer_id);
create index contracts_created_idx on subscription_contracts (shop_id, created_at);

create table subscription_lines (
  shop_id bigint not null,
  contract_id bigint not null,
  id text not null,                           -- line GIDs are UUID-like, keep as text
  product_id bigint,
  variant_id bigint,
  title text not null,
  variant_title text,
  sku text,
  quantity integer not null,
  selling_plan_id bigint,
  selling_plan_name text,
  current_price numeric(20, 4),
  variant_image_url text,
  position integer not null default 0,
  primary key (shop_id, contract_id, id),
  foreign key (shop_id, contract_id) references subscription_contracts(shop_id, id) on delete cascade
);
create index lines_variant_idx on subscription_lines (shop_id, variant_id, contract_id);

create table orders (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  name text,
  contract_id bigint,
  customer_id bigint,
  total_amount numeric(20, 4),
  currency_code text,
  test boolean not null default false,
  created_at timestamptz not null,
  cancelled_at timestamptz,
  primary key (shop_id, id)
);
create index orders_contract_idx on orders (shop_id, contract_id, created_at);

create table billing_attempts (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigint not null,
  contract_id bigint not null,
  idempotency_key text not null,
  created_at timestamptz not null,
  ready boolean not null default false,
  error_code text,
  error_message text,
  order_id bigint,
  primary key (shop_id, id)
);
create index billing_attempts_contract_idx on billing_attempts (shop_id, contract_id, created_at);

-- Append-only history of every contract change (reports read it). Rows are never updated
-- or deleted: the trigger below refuses it.
create table contract_events (
  id bigserial primary key,
  shop_id bigint not null references shops(id) on delete cascade,
  contract_id bigint not null,
  type text not null,                         -- created, status_changed, billed, ...
  occurred_at timestamptz not null,
  source text not null,                       -- sync | webhook | app | billing
  payload jsonb not null default '{}'
);
create index contract_events_shop_time_idx on contract_events (shop_id, occurred_at);
create index contract_events_contract_idx on contract_events (shop_id, contract_id, occurred_at);

create function contract_events_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'contract_events is append-only';
end $$;
create trigger contract_events_no_update before update or delete on contract_events
  for each row when (pg_trigger_depth() = 0) execute function contract_events_append_only();

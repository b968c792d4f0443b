-- Shop operations (issue 16): the shop's mail templates and sender, its settings, the my-page
-- target variants, the app plan change waiting for the merchant's approval, and the HTML part
-- and Reply-To of outbox mails. Everything is keyed by shop and kept across an uninstall and
-- reinstall (the shop row stays; only shop/redact deletes it, cascading).

create table mail_templates (
  shop_id bigint not null references shops(id) on delete cascade,
  type text not null check (type in ('order_confirmation', 'payment_failure', 'final_action',
    'payment_challenge', 'pause', 'resume', 'cancellation', 'upcoming_billing', 'export_ready')),
  title text not null check (char_length(title) between 1 and 200),
  body text not null check (char_length(body) between 1 and 10000),
  signature text not null check (char_length(signature) <= 1000),
  updated_at timestamptz not null default now(),
  primary key (shop_id, type)
);

-- One row per shop once it saved anything; a missing row means the defaults.
create table shop_settings (
  shop_id bigint primary key references shops(id) on delete cascade,
  note_attribute text not null default '[]',
  sku_conversions text not null default '[]',
  thank_page_script text not null default '""',
  -- The shop's own address: Reply-To of its customers' mails (null: none).
  shop_mail text check (char_length(shop_mail) <= 254),
  updated_at timestamptz not null default now()
);

create table my_page_target_variants (
  shop_id bigint not null references shops(id) on delete cascade,
  -- 1, or 2 for shops flagged with two customer groups (spec section 6).
  customer_group smallint not null check (customer_group in (1, 2)),
  variant_id bigint not null,
  created_at timestamptz not null default now(),
  primary key (shop_id, customer_group, variant_id)
);

-- PUT /plan created an app subscription on the platform; it waits for the merchant's approval.
create table app_plan_changes (
  shop_id bigint not null references shops(id) on delete cascade,
  subscription_id bigint not null,
  plan text not null,
  status text not null default 'pending' check (status in ('pending', 'active', 'abandoned')),
  created_at timestamptz not null default now(),
  primary key (shop_id, subscription_id)
);
create index app_plan_changes_pending_idx on app_plan_changes (shop_id) where status = 'pending';

alter table mail_outbox add column html_body text;
alter table mail_outbox add column reply_to text;
alter table mail_outbox add column from_name text;

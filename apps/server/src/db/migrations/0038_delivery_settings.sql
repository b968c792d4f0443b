-- Issue 25: 配送設定. One row per shop that saved its delivery settings (none: the defaults of
-- packages/domain delivery/calendar.ts). The JSON is what ZDeliverySettings accepted.
create table delivery_settings (
  shop_id bigint primary key references shops(id) on delete cascade,
  settings jsonb not null,
  updated_at timestamptz not null default now()
);

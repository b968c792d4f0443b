-- Boxes (issue 13, spec §3): a selection of a selling plan group's products, of which the
-- shopper picks between min_selection and max_selection. A box is created with defaults and
-- then saved field by field (spec §4), so every field but the defaulted ones may be unfilled
-- (null) until the merchant saves it; spec §5's "required" is judged when the box is read.
-- The group is not a foreign key: the mirror's groups come and go with syncs and webhooks, and
-- a box whose group was deleted keeps its other fields and reads as unfilled.
create table boxes (
  shop_id bigint not null references shops(id) on delete cascade,
  id bigserial not null,
  name text check (length(name) <= 255),
  min_selection integer check (min_selection >= 1),
  max_selection integer check (max_selection >= 1),
  selling_plan_group_id bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (shop_id, id)
);
create index boxes_list_idx on boxes (shop_id, created_at desc, id desc);

-- Demo data the app adds to the demo shop once (apps/server/src/demo/app-data.ts): a seed is
-- not repeated after the merchant deleted what it made.
create table demo_seeds (
  shop_id bigint not null references shops(id) on delete cascade,
  name text not null,
  seeded_at timestamptz not null default now(),
  primary key (shop_id, name)
);

-- Selling plans (issue 13): what the app keeps about a shop's selling plans that the platform
-- does not.

-- Custom cycle discounts of recurring-multi plans (ADR 0013): the discount from cycle `cycle`
-- on, until the next rule. The billing engine prices a line sold with the plan by them
-- (billing/cycle-prices.ts). They go with the plan: deleting the plan from the mirror (a
-- group's update or delete, by the app or a webhook) deletes them.
create table selling_plan_cycle_discounts (
  shop_id bigint not null references shops(id) on delete cascade,
  selling_plan_id bigint not null,
  cycle integer not null check (cycle >= 1),
  adjustment_type text not null check (adjustment_type in ('PERCENTAGE', 'FIXED_AMOUNT', 'PRICE')),
  adjustment_value numeric(20, 4) not null check (adjustment_value >= 0),
  updated_at timestamptz not null default now(),
  primary key (shop_id, selling_plan_id, cycle),
  foreign key (shop_id, selling_plan_id) references selling_plans(shop_id, id) on delete cascade
);

-- Parent products (shops with the parent_products flag): the variant shown as the parent of a
-- group's variant, or of the whole group (variant_id 0).
create table selling_plan_group_parents (
  shop_id bigint not null references shops(id) on delete cascade,
  group_id bigint not null,
  variant_id bigint not null check (variant_id >= 0),
  parent_variant_id bigint not null,
  updated_at timestamptz not null default now(),
  primary key (shop_id, group_id, variant_id),
  foreign key (shop_id, group_id) references selling_plan_groups(shop_id, id) on delete cascade
);

-- The group list (GET /subscriptions/sellingPlanGroups): newest first, 10 a page.
create index selling_plan_groups_list_idx on selling_plan_groups (shop_id, created_at desc, id desc);
-- A plan's group (GET /selling-plans/:id/selling-plan-group-id) is its primary key; a group's
-- plans are read by group.
create index selling_plans_group_idx on selling_plans (shop_id, group_id);

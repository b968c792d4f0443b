-- The lines' pricing policies as read just before a cycle's charge (the billing engine's
-- priceCharge): [{id, currentPrice, pricingPolicy}] with the prices the charge carried. After a
-- success the next cycle's prices are worked out from these, without reading them again.
-- Null for cycles charged before this column, or when that read failed: then they are read.
alter table billing_cycles add column line_pricing jsonb;

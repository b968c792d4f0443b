-- 3-D Secure (issue 12, item 6; ADR 0011). EMV 3-D Secure is mandatory for online card
-- payments in Japan since the end of March 2025, so a recurring charge can come back
-- challenged: the attempt is done processing with neither an order nor an error, and the
-- customer must authenticate at its nextActionUrl. The cycle waits in its own status
-- ('challenged': no retry charge is made meanwhile) with the link, when the app learnt of the
-- challenge, and until when the customer has before the cycle follows the dunning schedule.
alter table billing_cycles drop constraint billing_cycles_status_check;
alter table billing_cycles add constraint billing_cycles_status_check
  check (status in ('attempting', 'challenged', 'retry_scheduled', 'succeeded', 'failed'));

alter table billing_cycles
  add column challenge_url text,
  add column challenged_at timestamptz,
  add column challenge_expires_at timestamptz;

-- The daily run reviews a shop's open challenges (completed ones whose webhook was lost, and
-- those past their deadline).
create index billing_cycles_challenged_idx on billing_cycles (shop_id, challenge_expires_at)
  where status = 'challenged';

-- The mail outbox becomes the way every mail is sent (issue 11 item 6): a mail is decided by
-- inserting a `pending` row in the transaction that decides it (a billing outcome, an export
-- that finished), and a sender delivers pending rows after the commit. A crash between the two
-- leaves the row pending, and the next drain (any process) sends it. A row a dead sender had
-- claimed (`sending`, claimed long ago) is sent again with the same Message-ID.
alter table mail_outbox drop constraint mail_outbox_status_check;
alter table mail_outbox add constraint mail_outbox_status_check
  check (status in ('pending', 'sending', 'sent', 'stored', 'failed'));
-- What the decision was about (e.g. `order:<cycle id>`): the same decision never mails twice.
alter table mail_outbox add column dedupe_key text;
alter table mail_outbox add column attempts integer not null default 0;
alter table mail_outbox add column next_attempt_at timestamptz not null default now();
alter table mail_outbox add column claimed_at timestamptz;
alter table mail_outbox add column sent_at timestamptz;
alter table mail_outbox add column message_id text;
create unique index mail_outbox_dedupe_idx on mail_outbox (coalesce(shop_id, 0), dedupe_key)
  where dedupe_key is not null;
create index mail_outbox_due_idx on mail_outbox (next_attempt_at, id) where status in ('pending', 'sending');

-- Issue 26 (ADR 0042): the mail a subscriber's change on マイページ sends (ご契約内容の変更).
alter table mail_templates drop constraint mail_templates_type_check;
alter table mail_templates add constraint mail_templates_type_check check (type in ('order_confirmation',
  'payment_failure', 'final_action', 'payment_challenge', 'pause', 'resume', 'cancellation', 'contract_change',
  'upcoming_billing', 'export_ready'));

-- Issue 26: security changes are told on every channel, e-mail included, and
-- signing other sessions out can take away what those sessions set up.

-- A security event also goes to the person's e-mail (its destination is the
-- address as it was when the event was dispatched).
alter table event_deliveries drop constraint event_deliveries_channel_check;
alter table event_deliveries add constraint event_deliveries_channel_check
  check (channel in ('webhook', 'push', 'telegram', 'email'));

-- The sandbox outbox also keeps those e-mails: a notice carries no code.
alter table sandbox_outbox alter column code drop not null;
alter table sandbox_outbox drop constraint sandbox_outbox_purpose_check;
alter table sandbox_outbox add constraint sandbox_outbox_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up', 'security_notice'));
alter table sandbox_outbox add constraint sandbox_outbox_code_check
  check ((code is null) = (purpose = 'security_notice'));

-- The session that created each way of watching or acting for the person; null
-- for rows older than this migration and for the tenant's own endpoints. Sessions
-- are never deleted but with their user, so no index serves the foreign keys.
alter table webhook_endpoints
  add column created_by_session_id uuid references sessions (id) on delete set null;
alter table push_subscriptions
  add column created_by_session_id uuid references sessions (id) on delete set null;
alter table api_keys
  add column created_by_session_id uuid references sessions (id) on delete set null;

-- Security kinds cannot be muted any more: a mute set before is forgotten.
delete from notification_mutes where kind like 'security.%';

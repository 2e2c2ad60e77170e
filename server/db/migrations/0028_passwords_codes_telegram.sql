-- Issue 26 (part B): Telegram launch data used once and fresh, Telegram
-- biometrics bound to a session for a while.

-- Launch data that opened a session, kept until it would be too old anyway
-- (its auth_date + TELEGRAM_AUTH_MAX_AGE): the same string again is a replay.
-- `hash` is the data's own signature, so the same fields in another order
-- are the same launch data.
create table telegram_init_data_uses (
  hash text primary key,
  expires_at timestamptz not null
);
create index telegram_init_data_uses_expiry on telegram_init_data_uses (expires_at);

-- When Telegram signed the launch data a session was opened with: its
-- freshness (not the session's) lets the Mini App enrol biometrics.
alter table sessions add column telegram_auth_date timestamptz;

-- A biometric token belongs to the session that enrolled it and expires. The
-- tokens enrolled before were bound to no session: they go, and the Mini App
-- enrols again at its next second look.
delete from telegram_biometric_tokens;
alter table telegram_biometric_tokens
  add column session_id uuid not null references sessions (id) on delete cascade,
  add column expires_at timestamptz not null;
create index telegram_biometric_tokens_session on telegram_biometric_tokens (session_id);

-- One-time codes: a code can now reset a password.
alter table otp_codes drop constraint otp_codes_purpose_check;
alter table otp_codes add constraint otp_codes_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up', 'password_reset'));
alter table sandbox_outbox drop constraint sandbox_outbox_purpose_check;
alter table sandbox_outbox add constraint sandbox_outbox_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up', 'security_notice', 'password_reset'));

-- Wrong codes, blocks and the resend interval now count per identifier AND
-- purpose: guesses at the public sign-in or reset calls must never block the
-- signed-in person's second look (purpose step_up, reached only from a
-- session). The rows counted so far were every purpose's: they stay as the
-- sign-in's, which is what anonymous guesses were.
alter table otp_attempts add column purpose text not null default 'sign_in'
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up', 'password_reset'));
alter table otp_attempts alter column purpose drop default;
alter table otp_attempts drop constraint otp_attempts_pkey;
alter table otp_attempts add primary key (tenant_id, channel, identifier, purpose);
drop index otp_codes_newest;
create index otp_codes_newest on otp_codes (tenant_id, channel, identifier, purpose, created_at desc);

-- Passwords can be changed and reset: when it last happened (null: since
-- sign-up, or never set).
alter table users add column password_changed_at timestamptz;

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

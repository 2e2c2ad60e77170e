-- Telegram accounts, blocking by the tenant, and the rest of the profile.

-- Telegram user ids are 64-bit; kept as text like every other identifier we do not do sums on.
alter table users add column telegram_id text;
create unique index users_tenant_telegram on users (tenant_id, telegram_id) where telegram_id is not null;

-- Set by the tenant: a blocked account answers 423 on every call.
alter table users add column blocked_at timestamptz;

alter table user_profiles
  add column address jsonb,
  add column username text,
  add column photo_url text,
  add column is_premium boolean not null default false;
alter table user_profiles
  add constraint user_profiles_language check (language in ('en', 'ru'));

-- One-time codes for signing in and for confirming a new e-mail or phone,
-- the guard against guessing them, and the sandbox provider's outbox.

-- A code is kept only as HMAC-SHA256(key, code id || ':' || code), the key
-- derived from the server's secrets and never stored in the database. Why not
-- argon2, as for passwords: six digits are a million guesses, and any hash of
-- them, however slow, falls to an offline search of that space. What protects a
-- code is a key the database does not hold (a dump alone yields nothing), a
-- short lifetime, and the attempt limit below; a slow hash would only slow down
-- every request. Binding the code id into the MAC makes a hash useless on any
-- other row.
create table otp_codes (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  channel text not null check (channel in ('email', 'sms')),
  -- The login identifier the code went to: an e-mail lower-cased, a phone as digits.
  identifier text not null,
  purpose text not null check (purpose in ('sign_in', 'change_email', 'change_phone')),
  -- The account the code is for: the signed-in user for a contact change (a code
  -- works only for them), the existing account for a sign-in, null for a new one.
  user_id uuid references users (id) on delete cascade,
  code_hash text not null,
  expires_at timestamptz not null,
  -- Set once the code can no longer be used, and why: it was used, a newer code
  -- replaced it, or the identifier was blocked.
  consumed_at timestamptz,
  consumed_reason text check (consumed_reason in ('verified', 'superseded', 'blocked')),
  created_at timestamptz not null default now(),
  constraint otp_codes_consumed_reason check ((consumed_at is null) = (consumed_reason is null)),
  constraint otp_codes_identifier_normal check (
    (channel = 'email' and identifier = lower(identifier))
    or (channel = 'sms' and identifier ~ '^[0-9]+$')
  )
);
-- A newer code supersedes the older ones: at most one live code per identifier and purpose.
create unique index otp_codes_live
  on otp_codes (tenant_id, channel, identifier, purpose) where consumed_at is null;
-- The resend interval looks up the newest code of an identifier.
create index otp_codes_newest on otp_codes (tenant_id, channel, identifier, created_at desc);

-- Wrong codes per identifier (not per code: asking for a new code must not buy
-- more guesses). Reaching the limit blocks the identifier — no codes are sent
-- to it and none is accepted — until blocked_until. The row is also the lock
-- that puts sends and checks for one identifier in a row.
create table otp_attempts (
  tenant_id uuid not null references tenants (id),
  channel text not null check (channel in ('email', 'sms')),
  identifier text not null,
  failed_attempts integer not null default 0 check (failed_attempts >= 0),
  last_failed_at timestamptz,
  blocked_until timestamptz,
  updated_at timestamptz not null default now(),
  primary key (tenant_id, channel, identifier)
);

-- What the sandbox messaging provider "sent", so tests, e2e and a person trying
-- the demo can read the code. Only the sandbox writes here; it holds codes in
-- the clear on purpose, which is why its route exists only with SANDBOX=true.
create table sandbox_outbox (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  channel text not null check (channel in ('email', 'sms')),
  -- An e-mail address or a phone as digits (the column cannot be called "to").
  recipient text not null,
  purpose text not null check (purpose in ('sign_in', 'change_email', 'change_phone')),
  code text not null,
  subject text,
  body text not null,
  created_at timestamptz not null default now()
);
create index sandbox_outbox_recipient on sandbox_outbox (recipient, created_at desc);

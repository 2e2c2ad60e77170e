-- Issue 21: passkeys, a second look before sensitive acts, sessions and devices.

-- A session now says where it came from and how it was opened; `stepped_up_at`
-- is the moment of its last proof of presence (passkey, one-time code,
-- Telegram biometrics). The proof belongs to the session: another session of
-- the same person never borrows it.
alter table sessions
  add column ip text,
  add column app_env text check (app_env in ('web', 'telegram')),
  add column sign_in_method text
    check (sign_in_method in ('password', 'otp', 'telegram', 'passkey')),
  -- Stamped on each token refresh (not on every call: a write per request would cost more
  -- than the answer), so "last seen" is at most one access-token lifetime old.
  add column last_seen_at timestamptz,
  add column device_id uuid,
  -- The sign-in came from a device this person had not signed in from before
  -- (server/domain/auth/devices.ts recordSignInDevice).
  add column new_device boolean not null default false,
  add column stepped_up_at timestamptz,
  add column step_up_method text
    check (step_up_method in ('passkey', 'otp', 'telegram_biometrics'));

-- The devices a person has signed in from: one row per (person, device
-- fingerprint). The fingerprint is a hash of what the server sees of the
-- device (its user agent and app environment), never the text itself.
create table user_devices (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  fingerprint text not null,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  unique (user_id, fingerprint)
);

-- WebAuthn credentials (passkeys). credential_id is base64url as the browser
-- reports it, unique per tenant; sign_count is the authenticator's counter
-- (0 for authenticators that do not keep one, e.g. synced passkeys).
create table passkeys (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  credential_id text not null,
  public_key bytea not null,
  sign_count bigint not null default 0 check (sign_count >= 0),
  transports jsonb not null default '[]' check (jsonb_typeof(transports) = 'array'),
  name text not null check (length(name) between 1 and 64),
  device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
  backed_up boolean not null default false,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  unique (tenant_id, credential_id)
);
create index passkeys_user on passkeys (user_id);

-- Challenges handed to the browser: each is good once, for its purpose, for a
-- few minutes. A registration or step-up challenge belongs to the session that
-- asked; a sign-in challenge to nobody yet (discoverable credentials).
create table webauthn_challenges (
  challenge text primary key,
  tenant_id uuid not null references tenants (id),
  purpose text not null check (purpose in ('register', 'sign_in', 'step_up')),
  session_id uuid references sessions (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index webauthn_challenges_expiry on webauthn_challenges (expires_at);

-- Telegram biometrics (BiometricManager): the Mini App keeps a random token in
-- the device's biometric-protected storage; the server keeps only its hash.
-- Unlocking it with a fingerprint or face hands it back: the proof of presence.
create table telegram_biometric_tokens (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index telegram_biometric_tokens_user on telegram_biometric_tokens (user_id);

-- The relying party per tenant: the domain passkeys are bound to and the
-- origins the app is served from. Null: the server's WEBAUTHN_RP_ID and
-- WEBAUTHN_ORIGINS.
alter table tenants
  add column webauthn_rp_id text,
  add column webauthn_origins jsonb
    check (webauthn_origins is null or jsonb_typeof(webauthn_origins) = 'array');

-- A one-time code can now also be the proof of a step-up.
alter table otp_codes drop constraint otp_codes_purpose_check;
alter table otp_codes add constraint otp_codes_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up'));
alter table sandbox_outbox drop constraint sandbox_outbox_purpose_check;
alter table sandbox_outbox add constraint sandbox_outbox_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up'));

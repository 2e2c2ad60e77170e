-- Card issuing (issue 6): cards, their rename requests, the reveal log, the
-- secret-exchange replay guard and card one-time codes.
--
-- No card number rests here in the clear: `pan_ciphertext` is AES-256-GCM
-- under the key named by `pan_key_id` (config CARD_DATA_KEY), `pan_fingerprint`
-- a keyed HMAC (base64url) that keeps numbers unique without revealing them.
-- The CVV is never stored: it is derived on demand from the CVK.

create table cards (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  wallet_id uuid not null,
  fiat_account_id uuid not null,
  program_id uuid not null,
  -- Opened with /issuing/cards/create: the fiat account exists for this card alone.
  stand_alone boolean not null,
  form_factor text not null check (form_factor in ('VIRTUAL', 'PHYSICAL')),
  card_type text not null check (card_type in ('CREDIT', 'DEBIT')),
  status text not null default 'ACTIVE'
    check (status in ('ACTIVE', 'FROZEN', 'BLOCKED', 'INACTIVE', 'CANCELED', 'CLOSED')),
  nick_name text check (char_length(nick_name) between 1 and 64),
  bin text not null check (bin ~ '^[0-9]{6,8}$'),
  last4 text not null check (last4 ~ '^[0-9]{4}$'),
  -- `v1.<iv>.<tag>.<ciphertext>`, base64url parts; AAD = tenant id and card id.
  pan_ciphertext text not null,
  pan_key_id text not null,
  pan_fingerprint text not null,
  expiry_month smallint not null check (expiry_month between 1 and 12),
  expiry_year smallint not null check (expiry_year between 2000 and 2999),
  limit_per_transaction_minor numeric(78, 0) not null check (limit_per_transaction_minor > 0),
  limit_daily_minor numeric(78, 0) not null check (limit_daily_minor >= limit_per_transaction_minor),
  limit_monthly_minor numeric(78, 0) not null check (limit_monthly_minor >= limit_daily_minor),
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  unique (tenant_id, pan_fingerprint),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  foreign key (tenant_id, program_id) references card_programs (tenant_id, id),
  foreign key (fiat_account_id) references fiat_accounts (id)
);
create index cards_owner on cards (tenant_id, user_id, created_at, id);
create index cards_fiat_account on cards (fiat_account_id);

-- PATCH /issuing/cards/{id}/update: one row per request_id, so a retry answers
-- the same and never renames the card back.
create table card_rename_requests (
  card_id uuid not null references cards (id),
  request_id text not null,
  nick_name text not null,
  created_at timestamptz not null default now(),
  primary key (card_id, request_id)
);

-- Every reveal of a card's secrets and every one-time code, for the owner to read.
create table card_reveals (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  card_id uuid not null references cards (id),
  session_id uuid not null,
  kind text not null check (kind in ('SECRETS', 'OTP')),
  created_at timestamptz not null default now()
);
create index card_reveals_card on card_reveals (card_id, created_at, id);

-- Replay guard of the secret exchange: the SHA-256 (base64url) of every
-- encrypted_key accepted, whichever card it was for. A row is pruned once its
-- key is refused as stale anyway (its timestamp is then more than 60 s old).
create table card_secret_exchanges (
  key_hash text primary key,
  tenant_id uuid not null references tenants (id),
  card_id uuid not null references cards (id),
  created_at timestamptz not null default now()
);
create index card_secret_exchanges_age on card_secret_exchanges (created_at);

-- One-time codes of a card (3-D Secure style confirmations), stored as a keyed hash.
create table card_otps (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  card_id uuid not null references cards (id),
  code_hash text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index card_otps_card on card_otps (card_id, expires_at);

-- Tenants, users and their sessions. Every row that belongs to someone
-- carries tenant_id, so every query can be scoped by it.

create table tenants (
  id uuid primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table users (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  -- Stored trimmed and lower-cased: one person, one address, whatever they type.
  email text,
  -- Digits only (docs/product.md §3): "+1 (415) 555-2671" and "14155552671" are one login.
  phone text,
  password_hash text,
  kyc_status text not null default 'UNVERIFIED'
    check (kyc_status in ('APPROVED', 'DECLINED', 'PENDING', 'HOLD', 'DOUBLE', 'SOFT_REJECT', 'REJECT', 'UNVERIFIED')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint users_email_lowercase check (email = lower(email)),
  constraint users_phone_digits check (phone ~ '^[0-9]+$')
);
create unique index users_tenant_email on users (tenant_id, email) where email is not null;
create unique index users_tenant_phone on users (tenant_id, phone) where phone is not null;

create table user_profiles (
  user_id uuid primary key references users (id) on delete cascade,
  tenant_id uuid not null references tenants (id),
  first_name text,
  last_name text,
  date_of_birth date,
  language text,
  updated_at timestamptz not null default now()
);

-- A session is one sign-in on one device: the family of refresh tokens that
-- rotate from it (RFC 9700). Revoking the session ends every token in it.
create table sessions (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  revoke_reason text,
  user_agent text
);
create index sessions_user_active on sessions (user_id) where revoked_at is null;

-- Only a hash of each refresh token is kept. A token is current until used;
-- using it stamps used_at and points replaced_by at its successor.
create table refresh_tokens (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  session_id uuid not null references sessions (id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  replaced_by uuid references refresh_tokens (id)
);
create index refresh_tokens_session on refresh_tokens (session_id);

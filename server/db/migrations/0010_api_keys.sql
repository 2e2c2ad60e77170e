-- Developer API keys (issue 8). A key belongs to one user in one tenant and
-- acts as that user, within its role. Its secrets live apart: a rotation adds
-- a secret and gives the previous one an end (now + the overlap), so a key
-- keeps its id, name and history across rotations. Only the SHA-256 of a
-- secret is kept: the full key `fpk_<public id>_<secret>` is shown once.

create table api_keys (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  name text not null check (char_length(name) between 1 and 100),
  role text not null check (role in ('READ_ONLY', 'DEVELOPER', 'PRODUCTION')),
  enabled boolean not null default true,
  -- jsonb array of canonical IP addresses and CIDR networks; empty: from anywhere.
  allowed_ips jsonb not null default '[]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  unique (tenant_id, id)
);
create index api_keys_owner on api_keys (tenant_id, user_id, created_at);

create table api_key_secrets (
  id uuid primary key,
  api_key_id uuid not null references api_keys (id) on delete cascade,
  -- The `<public id>` of the key: how a presented key finds its row.
  public_id text not null unique check (public_id ~ '^[0-9a-f]{16}$'),
  -- Hex SHA-256 of the whole presented key.
  secret_hash text not null check (secret_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  -- Null: the key's current secret. Set by a rotation: the secret works until then.
  expires_at timestamptz
);
create index api_key_secrets_key on api_key_secrets (api_key_id);
-- At most one current secret per key.
create unique index api_key_secrets_current on api_key_secrets (api_key_id) where expires_at is null;

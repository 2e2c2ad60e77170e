-- Issue 33: verifiable balances. A tenant's daily snapshot of every person's
-- balances in a Merkle-sum tree, its root signed with the tenant's proof key
-- (docs/api.md, "Proof of balances"; server/domain/proofs/).

-- The tenant's Ed25519 signing keys. The private half is stored sealed
-- (AES-256-GCM under PROOF_KEYS_KEY, the tenant id as additional data); the
-- id is the public key's fingerprint. One current key per tenant: rotating
-- retires it, and the roots it signed keep naming it.
create table proof_keys (
  id text primary key check (id ~ '^[0-9a-f]{32}$'),
  tenant_id uuid not null references tenants (id),
  public_key_pem text not null,
  private_key_sealed text not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);
create unique index proof_keys_current on proof_keys (tenant_id) where retired_at is null;

-- One snapshot per tenant and UTC day: publishing again that day answers the
-- one there is. Reserves are what the custodian attested as it was taken.
create table proof_snapshots (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  day date not null,
  taken_at timestamptz not null,
  leaf_count integer not null check (leaf_count >= 1),
  root_hash text not null check (root_hash ~ '^[0-9a-f]{64}$'),
  root_sums text not null,
  key_id text not null references proof_keys (id),
  signature text not null,
  reserves jsonb,
  unique (tenant_id, day),
  unique (tenant_id, id)
);
create index proof_snapshots_newest on proof_snapshots (tenant_id, taken_at desc);

-- Every node of a snapshot's tree (level 0: the leaves, padding included),
-- so a person's path is one indexed read. Kept for the newest snapshots only
-- (server/domain/proofs/service.ts, KEEP_TREES_DAYS); roots are kept for ever.
create table proof_nodes (
  snapshot_id uuid not null references proof_snapshots (id),
  level smallint not null check (level >= 0),
  position integer not null check (position >= 0),
  hash text not null,
  sums text not null,
  primary key (snapshot_id, level, position)
);

-- Each person's leaf: where it sits, its nonce (given to that person only)
-- and the wallets and fiat accounts its sums are made of.
create table proof_leaves (
  snapshot_id uuid not null,
  tenant_id uuid not null,
  user_id uuid not null references users (id),
  position integer not null check (position >= 0),
  nonce text not null check (nonce ~ '^[0-9a-f]{64}$'),
  balances jsonb not null,
  primary key (snapshot_id, user_id),
  foreign key (tenant_id, snapshot_id) references proof_snapshots (tenant_id, id)
);

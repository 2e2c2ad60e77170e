-- Deposit addresses, the wallet transaction records people see, and the job
-- queue background work runs from.

-- ---------------------------------------------------------------------------
-- Each tenant derives its sandbox deposit addresses from a seed of its own
-- (server/domain/addresses/derive.ts). The seed is a secret: kept encrypted
-- (AES-256-GCM under a key from DATA_DIR or config), never returned by any call.
create table tenant_address_seeds (
  tenant_id uuid primary key references tenants (id),
  seed_ciphertext text not null,
  created_at timestamptz not null default now()
);

-- Indices are handed out per tenant and derivation path. Ethereum and Polygon
-- share a path (m/44'/60'), so they share one counter: one index, one address,
-- one wallet — never the same string owned by two wallets on two chains.
create table address_index_counters (
  tenant_id uuid not null references tenants (id),
  derivation_family text not null check (derivation_family in ('bitcoin', 'evm', 'tron', 'solana')),
  next_index integer not null default 0 check (next_index >= 0),
  primary key (tenant_id, derivation_family)
);

create table wallet_addresses (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  wallet_id uuid not null,
  chain text not null references chains (id),
  address text not null,
  derivation_index integer not null check (derivation_index >= 0),
  label text check (length(label) <= 100),
  created_at timestamptz not null default now(),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id)
);
-- A deposit to (chain, address) finds exactly one wallet.
create unique index wallet_addresses_chain_address on wallet_addresses (chain, address);
create index wallet_addresses_wallet on wallet_addresses (wallet_id, chain, created_at);

-- ---------------------------------------------------------------------------
-- What a person sees in their history. Money itself moves only through the
-- ledger (journal_entries); a record points at the entries it caused, and its
-- status follows docs/product.md §4 (new → pending → complete, or failed/canceled).
create table wallet_transactions (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  wallet_id uuid not null,
  type text not null check (type in ('deposit', 'withdrawal')),
  method text not null check (method in ('p2p', 'crypto', 'bank_transfer', 'exchange', 'sbp')),
  record_type text not null check (record_type in (
    'CARD_PROVIDER_DEPOSIT', 'CARD_PROVIDER_REFUND', 'DEPOSIT', 'DEPOSIT_CRYPTO_EXTERNAL',
    'DEPOSIT_CRYPTO_INTERNAL', 'EXCHANGE_CRYPTO_INTERNAL', 'EXT_EXCHANGE', 'FEE', 'NETWORK_FEE',
    'REFUND', 'WITHDRAWAL', 'WITHDRAWAL_CRYPTO_EXTERNAL', 'WITHDRAWAL_CRYPTO_INTERNAL',
    'WHOLESALE_CARD_DEPOSIT')),
  status text not null check (status in ('complete', 'pending', 'canceled', 'failed', 'processing', 'new')),
  currency_uuid uuid not null references currencies (uuid),
  -- Always positive; `type` says which way it went.
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  address text,
  tx_hash text,
  confirmations integer check (confirmations >= 0),
  -- Groups the records one operation produced (an order's amount, fee and network fee).
  operation_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id)
);
-- History pages newest first by (created_at, id): keyset pagination for the CSV.
create index wallet_transactions_history on wallet_transactions (wallet_id, created_at desc, id desc);
create unique index wallet_transactions_chain_hash
  on wallet_transactions (tenant_id, tx_hash, record_type) where tx_hash is not null;

-- ---------------------------------------------------------------------------
-- Background jobs, on the database itself: a worker claims due rows with
-- FOR UPDATE SKIP LOCKED, so a restart resumes what was due and two workers
-- never run one job. A job's handler must be idempotent per step (its ledger
-- entries carry idempotency keys), so a crash between its work and `done_at`
-- repeats nothing.
create table jobs (
  id uuid primary key,
  tenant_id uuid references tenants (id),
  kind text not null check (kind ~ '^[a-z][a-z0-9_.]*$'),
  payload jsonb not null default '{}',
  run_at timestamptz not null default now(),
  attempts integer not null default 0,
  last_error text,
  done_at timestamptz,
  created_at timestamptz not null default now()
);
create index jobs_due on jobs (run_at) where done_at is null;

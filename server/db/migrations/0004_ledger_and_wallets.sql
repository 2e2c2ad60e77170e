-- The catalogues (chains, currencies), wallets, and the double-entry ledger
-- under them. docs/decisions.md explains the choices; the invariants are
-- repeated here next to the rows they protect.

-- ---------------------------------------------------------------------------
-- Catalogues. Reference data, the same for every tenant (so no tenant_id):
-- seeded with fixed uuids so a currency's uuid is the same on every install
-- and the app may cache it forever.

create table chains (
  id text primary key,
  name text not null,
  address_format text not null check (address_format in ('bech32', 'evm', 'tron', 'solana')),
  -- Confirmations after which a deposit counts as complete.
  confirmations integer not null check (confirmations >= 1),
  -- Set right after the currencies are seeded (the two tables refer to each other).
  native_currency_uuid uuid,
  sort_order integer not null
);

create table currencies (
  uuid uuid primary key,
  -- USDT on Tron and USDT on Ethereum share a code and differ in chain and uuid.
  code text not null check (code = upper(code)),
  name text not null,
  type text not null check (type in ('token', 'native', 'fiat')),
  decimals integer not null check (decimals between 0 and 18),
  chain text references chains (id),
  sort_order integer not null,
  constraint currencies_fiat_has_no_chain check ((type = 'fiat') = (chain is null))
);
create unique index currencies_code_chain on currencies (code, chain) where chain is not null;
create unique index currencies_fiat_code on currencies (code) where chain is null;

alter table chains
  add constraint chains_native_currency foreign key (native_currency_uuid) references currencies (uuid);

insert into chains (id, name, address_format, confirmations, sort_order) values
  ('bitcoin', 'Bitcoin', 'bech32', 3, 1),
  ('ethereum', 'Ethereum', 'evm', 12, 2),
  ('tron', 'Tron', 'tron', 19, 3),
  ('polygon', 'Polygon', 'evm', 128, 4),
  ('solana', 'Solana', 'solana', 32, 5);

insert into currencies (uuid, code, name, type, decimals, chain, sort_order) values
  ('68e31acb-683c-4237-a1d1-50edfa265bdf', 'BTC', 'Bitcoin', 'native', 8, 'bitcoin', 1),
  ('442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433', 'ETH', 'Ether', 'native', 18, 'ethereum', 2),
  ('9f847a70-d56d-41fb-97f2-52e351b89a1e', 'TRX', 'Tronix', 'native', 6, 'tron', 3),
  ('facbb294-d14a-4b53-81f4-fea13a8b3b94', 'POL', 'Polygon Ecosystem Token', 'native', 18, 'polygon', 4),
  ('f4ef2e7b-a437-4e61-9ba5-0ee46d0932cf', 'SOL', 'Solana', 'native', 9, 'solana', 5),
  ('2e56e676-1ddf-47f3-8f7f-3b736ad1e971', 'USDT', 'Tether USD', 'token', 6, 'ethereum', 10),
  ('b3115d89-344b-4d51-abfa-76863eddec04', 'USDT', 'Tether USD', 'token', 6, 'tron', 11),
  ('ed315b8e-2f0f-44d5-a653-d644c1042e73', 'USDT', 'Tether USD', 'token', 6, 'polygon', 12),
  ('770514e7-55c4-4967-a12e-7f6147bc56d5', 'USDT', 'Tether USD', 'token', 6, 'solana', 13),
  ('f4565265-a107-4329-ba7f-48d536e696a8', 'USDC', 'USD Coin', 'token', 6, 'ethereum', 20),
  ('16290704-7135-42d1-a05d-3ac4676000fe', 'USDC', 'USD Coin', 'token', 6, 'polygon', 21),
  ('60552346-2454-4103-9a99-c19baaad38e5', 'USDC', 'USD Coin', 'token', 6, 'solana', 22),
  ('fc3b2351-726b-4cca-abda-4cfdcf917b0b', 'EUR', 'Euro', 'fiat', 2, null, 30),
  ('23a118db-510b-4942-ae1f-19d4bbe14324', 'USD', 'US Dollar', 'fiat', 2, null, 31),
  ('4c93668a-8153-4866-8347-affca6293542', 'GBP', 'Pound Sterling', 'fiat', 2, null, 32);

update chains set native_currency_uuid = currencies.uuid
  from currencies
  where currencies.chain = chains.id and currencies.type = 'native';
alter table chains alter column native_currency_uuid set not null;

-- ---------------------------------------------------------------------------
-- Wallets. A user may have several, of any type. Never deleted: the ledger
-- refers to them for ever.

create table wallets (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  type text not null
    check (type in ('business', 'personal', 'trading', 'escrow', 'merchant', 'exchange', 'staking', 'vault')),
  created_at timestamptz not null default now(),
  -- The target of the composite foreign keys below: a row can only point at a
  -- wallet of its own tenant.
  unique (tenant_id, id)
);
create index wallets_owner on wallets (tenant_id, user_id, created_at, id);

-- ---------------------------------------------------------------------------
-- The ledger. Amounts are integers in the currency's minor units (satoshi,
-- wei, cents) in NUMERIC(78, 0) — wei overflows int8 at 9.2 ETH; 78 digits
-- hold any uint256. Only server/domain/ledger/service.ts post() writes here.

-- An account holds any number of currencies (a balance row each). Wallet
-- accounts (user_wallet: available; pending: incoming, unconfirmed; held:
-- reserved for an accepted order) belong to one wallet and never go below
-- zero. System accounts (external: the world outside the platform; fees;
-- treasury: the platform's own funds) are one per tenant and kind; external
-- and treasury may go negative — external's balance is minus everything that
-- came in from outside.
create table ledger_accounts (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  kind text not null check (kind in ('user_wallet', 'pending', 'held', 'external', 'fees', 'treasury')),
  wallet_id uuid,
  may_go_negative boolean not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  constraint ledger_accounts_wallet_kinds
    check ((kind in ('user_wallet', 'pending', 'held')) = (wallet_id is not null)),
  constraint ledger_accounts_negative_kinds
    check (may_go_negative = (kind in ('external', 'treasury')))
);
create unique index ledger_accounts_wallet_kind on ledger_accounts (wallet_id, kind) where wallet_id is not null;
create unique index ledger_accounts_system_kind on ledger_accounts (tenant_id, kind) where wallet_id is null;

-- One atomic movement of money. The idempotency key is unique per tenant: the
-- same key posted twice is one entry (service.ts compares the postings).
create table journal_entries (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  kind text not null check (kind ~ '^[a-z][a-z0-9_]*$'),
  idempotency_key text not null check (length(idempotency_key) between 1 and 200),
  -- A correction is a new entry with the negated postings of the one it reverses.
  reverses_entry_id uuid,
  created_at timestamptz not null default now(),
  unique (tenant_id, id),
  unique (tenant_id, idempotency_key),
  foreign key (tenant_id, reverses_entry_id) references journal_entries (tenant_id, id)
);
-- An entry is reversed at most once.
create unique index journal_entries_reversed_once on journal_entries (reverses_entry_id)
  where reverses_entry_id is not null;

-- The legs of an entry: signed amounts that sum to zero per currency within
-- the entry (checked by rules.ts before the insert; the entry is written whole
-- in one transaction).
create table postings (
  entry_id uuid not null,
  seq integer not null check (seq >= 0),
  tenant_id uuid not null,
  account_id uuid not null,
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor <> 0),
  primary key (entry_id, seq),
  foreign key (tenant_id, entry_id) references journal_entries (tenant_id, id),
  foreign key (tenant_id, account_id) references ledger_accounts (tenant_id, id)
);
create index postings_account on postings (account_id, currency_uuid);

-- The running balance of each account in each currency, changed in the same
-- transaction as the postings it sums. Invariant: balance_minor equals the sum
-- of the account's postings in that currency. may_go_negative is copied from
-- the account so the CHECK below is the last line of defence: whatever path
-- writes here, a wallet balance cannot go below zero.
create table account_balances (
  account_id uuid not null,
  currency_uuid uuid not null references currencies (uuid),
  tenant_id uuid not null,
  balance_minor numeric(78, 0) not null,
  may_go_negative boolean not null,
  updated_at timestamptz not null default now(),
  primary key (account_id, currency_uuid),
  foreign key (tenant_id, account_id) references ledger_accounts (tenant_id, id),
  constraint account_balances_not_negative check (may_go_negative or balance_minor >= 0)
);

-- Entries and postings are immutable: a correction is a new entry. A trigger
-- (rather than REVOKE, which needs roles PGlite does not have) refuses every
-- UPDATE, DELETE and TRUNCATE on both engines.
create function ledger_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: post a reversing entry instead', tg_table_name
    using errcode = 'restrict_violation';
end
$$;

create trigger postings_immutable before update or delete on postings
  for each row execute function ledger_refuse_change();
create trigger postings_no_truncate before truncate on postings
  for each statement execute function ledger_refuse_change();
create trigger journal_entries_immutable before update or delete on journal_entries
  for each row execute function ledger_refuse_change();
create trigger journal_entries_no_truncate before truncate on journal_entries
  for each statement execute function ledger_refuse_change();

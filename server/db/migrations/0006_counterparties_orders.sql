-- Counterparties and their payout destinations, card programs and fiat
-- accounts (the sub-accounts card top-ups fill), and orders: the quotes they
-- are priced by, their status history, and the bank transfers that complete
-- fiat deposits.

-- ---------------------------------------------------------------------------
-- Counterparties: the people and businesses a wallet's owner pays. Scoped by
-- wallet (docs/product.md §7 paths), and through it by tenant and owner.

create table counterparties (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  wallet_id uuid not null,
  type text not null check (type in ('INDIVIDUAL', 'BUSINESS')),
  first_name text check (length(first_name) <= 100),
  last_name text check (length(last_name) <= 100),
  legal_name text check (length(legal_name) <= 200),
  email text,
  phone text,
  country text not null check (country ~ '^[A-Z]{2}$'),
  address jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  constraint counterparties_names check (
    (type = 'INDIVIDUAL' and first_name is not null and last_name is not null)
    or (type = 'BUSINESS' and legal_name is not null))
);
create index counterparties_wallet on counterparties (wallet_id, created_at, id);

-- One flat row per destination; the columns a rail does not use stay null.
-- server/domain/counterparties/rules.ts validates each rail before the insert.
create table counterparty_destinations (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  counterparty_id uuid not null,
  type text not null
    check (type in ('DOMESTIC_WIRE', 'ACH', 'SWIFT', 'SEPA', 'CRYPTO_EXTERNAL', 'CRYPTO_INTERNAL')),
  label text check (length(label) <= 100),
  iban text,
  bic text,
  account_number text,
  routing_number text,
  account_type text check (account_type in ('checking', 'savings')),
  bank_name text,
  bank_country text,
  chain text references chains (id),
  address text,
  target_wallet_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Deleting keeps the row: orders that paid it still reference it (and the
  -- full IBAN or address they went to). A deleted destination is never listed or paid.
  deleted_at timestamptz,
  unique (tenant_id, id),
  foreign key (tenant_id, counterparty_id) references counterparties (tenant_id, id),
  -- An internal destination is a wallet of the same tenant.
  foreign key (tenant_id, target_wallet_id) references wallets (tenant_id, id)
);
create index counterparty_destinations_counterparty
  on counterparty_destinations (counterparty_id, created_at, id);

-- ---------------------------------------------------------------------------
-- Card programs and fiat accounts. A fiat account holds one fiat currency in
-- a ledger account of kind sub_account, which belongs to the wallet but is
-- not part of its balances (it is the card's money).

create table card_programs (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  name text not null,
  status text not null check (status in ('ACTIVE', 'ARCHIVED')),
  currency_uuid uuid not null references currencies (uuid),
  form_factors jsonb not null,
  card_type text not null check (card_type in ('CREDIT', 'DEBIT')),
  sub_account_type text not null check (sub_account_type in ('prepaid', 'balance')),
  -- Issuer identification number the program's cards are numbered under.
  bin text not null check (bin ~ '^[0-9]{6,8}$'),
  fee_issue_minor numeric(78, 0) not null default 0 check (fee_issue_minor >= 0),
  fee_monthly_minor numeric(78, 0) not null default 0 check (fee_monthly_minor >= 0),
  fee_top_up_percent numeric(6, 3) not null default 0 check (fee_top_up_percent >= 0),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  unique (tenant_id, id)
);

alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('user_wallet', 'pending', 'held', 'external', 'fees', 'treasury', 'sub_account'));
alter table ledger_accounts drop constraint ledger_accounts_wallet_kinds;
alter table ledger_accounts add constraint ledger_accounts_wallet_kinds
  check ((kind in ('user_wallet', 'pending', 'held', 'sub_account')) = (wallet_id is not null));
-- A wallet has one account of each of its own kinds, and any number of sub-accounts.
drop index ledger_accounts_wallet_kind;
create unique index ledger_accounts_wallet_kind on ledger_accounts (wallet_id, kind)
  where kind in ('user_wallet', 'pending', 'held');

create table fiat_accounts (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  wallet_id uuid not null,
  program_id uuid not null,
  currency_uuid uuid not null references currencies (uuid),
  sub_account_type text not null check (sub_account_type in ('prepaid', 'balance')),
  status text not null default 'ACTIVE' check (status in ('ACTIVE', 'BLOCKED', 'INACTIVE', 'CANCELED')),
  ledger_account_id uuid not null unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  foreign key (tenant_id, program_id) references card_programs (tenant_id, id),
  foreign key (tenant_id, ledger_account_id) references ledger_accounts (tenant_id, id)
);
create index fiat_accounts_wallet on fiat_accounts (wallet_id, created_at, id);

-- ---------------------------------------------------------------------------
-- Quotes: a firm price for one order, good until expires_at, used by at most
-- one order. Amounts in minor units of their currency.

create table order_quotes (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  wallet_id uuid not null,
  order_type text not null,
  from_currency_uuid uuid not null references currencies (uuid),
  to_currency_uuid uuid not null references currencies (uuid),
  amount_from_minor numeric(78, 0) not null check (amount_from_minor > 0),
  amount_to_minor numeric(78, 0) not null check (amount_to_minor > 0),
  -- Units of `to` per unit of `from`, exact as published.
  rate text not null,
  -- [{kind, amount_minor, percent}] in the from currency.
  fees jsonb not null,
  total_minor numeric(78, 0) not null check (total_minor > 0),
  -- The target, as OrderTarget (contract/orders.ts) with ids resolved.
  target jsonb not null,
  -- What the rail will be told, as priced (StoredPayee in schema.ts; never
  -- answered): the IBAN, BIC and beneficiary name, the chain and address, or
  -- the wallet. The job pays this, never the destination as it is later.
  payee jsonb,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id)
);
create index order_quotes_expiry on order_quotes (expires_at);

create table orders (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  wallet_id uuid not null,
  order_type text not null check (order_type in (
    'DEPOSIT_FIAT_SEPA', 'DEPOSIT_FIAT_SWIFT', 'WITHDRAWAL_FIAT_SEPA', 'TRANSFER_CARD_PREPAID',
    'TRANSFER_CARD_SUBACCOUNT', 'WITHDRAWAL_CRYPTO', 'EXCHANGE_CRYPTO_INTERNAL',
    'TRANSFER_CARD_WHOLESALE')),
  status text not null check (status in ('NEW', 'PENDING', 'CANCELED', 'COMPLETE', 'ERROR', 'FAILED')),
  -- One quote, one order.
  quote_id uuid not null unique,
  -- The idempotency key and a hash of the request it came with; the first
  -- answer is kept so a replay returns it byte for byte.
  request_id text not null check (length(request_id) between 1 and 200),
  request_hash text not null,
  first_response jsonb,
  -- Copied from the quote: an order stands on its own once placed.
  from_currency_uuid uuid not null references currencies (uuid),
  to_currency_uuid uuid not null references currencies (uuid),
  amount_from_minor numeric(78, 0) not null,
  amount_to_minor numeric(78, 0) not null,
  rate text not null,
  fees jsonb not null,
  total_minor numeric(78, 0) not null,
  target jsonb not null,
  -- Copied from the quote: what the payout or broadcast pays.
  payee jsonb,
  -- Set when the target is a saved destination: deleting it while the order
  -- is not final answers 409.
  counterparty_destination_id uuid,
  fiat_account_id uuid,
  note text check (length(note) <= 140),
  -- DEPOSIT_FIAT_*: the reference the incoming transfer must carry.
  deposit_reference text unique,
  tx_hash text,
  -- When the job handed the order to its rail (a payout, a broadcast): from
  -- then on it can no longer be cancelled. Set before the rail is called, so a
  -- crash in between repeats the same (idempotent) call, never skips it.
  submitted_at timestamptz,
  -- The bank's id of a payout.
  rail_reference text,
  failure_code text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  unique (tenant_id, user_id, request_id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  foreign key (tenant_id, quote_id) references order_quotes (tenant_id, id),
  foreign key (tenant_id, counterparty_destination_id)
    references counterparty_destinations (tenant_id, id),
  foreign key (tenant_id, fiat_account_id) references fiat_accounts (tenant_id, id)
);
create index orders_user_history on orders (tenant_id, user_id, created_at desc, id desc);
create index orders_wallet_history on orders (wallet_id, created_at desc, id desc);
create index orders_destination_open on orders (counterparty_destination_id)
  where status in ('NEW', 'PENDING');

-- Every status an order has had: the timeline the app shows. `code` says what
-- happened (contract ORDER_EVENT_CODES, worded by the app in its language);
-- `note` says the same in English for API users, looked up by the code
-- (orders/rules.ts), so the two never disagree.
create table order_events (
  order_id uuid not null,
  seq integer not null check (seq >= 0),
  tenant_id uuid not null,
  status text not null check (status in ('NEW', 'PENDING', 'CANCELED', 'COMPLETE', 'ERROR', 'FAILED')),
  code text not null check (code in (
    'PLACED', 'FUNDS_HELD', 'AWAITING_TRANSFER', 'SENT_TO_BANK', 'BROADCAST',
    'TRANSFER_RECEIVED', 'PAID_OUT', 'CONFIRMED_ON_CHAIN', 'DELIVERED_TO_WALLET', 'EXCHANGED',
    'TOPPED_UP', 'RETURNED_ACCOUNT_CLOSED', 'ADDRESS_REJECTED', 'FIAT_ACCOUNT_INACTIVE',
    'REFUSED', 'PROCESSING_FAILED', 'CANCELED', 'BANK_NOT_ANSWERING', 'NETWORK_NOT_ANSWERING'
  )),
  note text,
  at timestamptz not null default now(),
  primary key (order_id, seq),
  foreign key (tenant_id, order_id) references orders (tenant_id, id)
);

-- Incoming bank transfers the sandbox bank reported, each matched to the
-- deposit order whose reference it carried.
create table bank_transfers (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  order_id uuid not null unique,
  reference text not null,
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  currency_uuid uuid not null references currencies (uuid),
  sender_name text,
  sender_iban text,
  received_at timestamptz not null default now(),
  foreign key (tenant_id, order_id) references orders (tenant_id, id)
);

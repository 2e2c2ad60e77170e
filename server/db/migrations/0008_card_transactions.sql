-- Card transactions (issue 6): what the card network reported for a card —
-- authorisations (approved or declined), clearings, reversals, refunds — each
-- in the currency of the card's fiat account, amount positive.
--
-- Holds: an approved authorisation moves its amount from the fiat account's
-- ledger sub-account to the account's hold sub-account (a second ledger
-- account of kind sub_account, opened on the first authorisation and named by
-- fiat_accounts.hold_ledger_account_id). A clearing moves the held amount to
-- external (and any rest back), a reversal moves it back, a refund comes from
-- external. The account's balance stays its spendable money.

alter table fiat_accounts add column hold_ledger_account_id uuid;
alter table fiat_accounts add constraint fiat_accounts_hold_account
  foreign key (tenant_id, hold_ledger_account_id) references ledger_accounts (tenant_id, id);

create table card_transactions (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  card_id uuid not null references cards (id),
  fiat_account_id uuid not null references fiat_accounts (id),
  wallet_id uuid not null,
  type text not null check (type in ('AUTHORIZATION', 'CLEARING', 'REFUND', 'REVERSAL',
    'ORIGINAL_CREDIT', 'FEE', 'DEPOSIT', 'WITHDRAWAL')),
  status text not null check (status in ('APPROVED', 'DECLINED', 'SETTLED', 'REVERSED')),
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  merchant_name text,
  merchant_mcc text check (merchant_mcc ~ '^[0-9]{4}$'),
  merchant_city text,
  merchant_country text check (merchant_country ~ '^[A-Z]{2}$'),
  decline_reason text check (decline_reason in ('CARD_FROZEN', 'CARD_BLOCKED', 'CARD_INACTIVE',
    'CARD_CANCELED', 'CARD_CLOSED', 'ACCOUNT_UNAVAILABLE', 'LIMIT_EXCEEDED', 'INSUFFICIENT_FUNDS')),
  exceeded_limit text check (exceeded_limit in ('per_transaction', 'daily', 'monthly')),
  authorization_id uuid references card_transactions (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  constraint card_transactions_merchant check (
    (merchant_name is null) = (merchant_mcc is null)
    and (merchant_name is null) = (merchant_city is null)
    and (merchant_name is null) = (merchant_country is null)),
  constraint card_transactions_declined
    check ((status = 'DECLINED') = (decline_reason is not null)),
  constraint card_transactions_limit
    check ((decline_reason = 'LIMIT_EXCEEDED') = (exceeded_limit is not null)),
  constraint card_transactions_linked
    check ((type in ('CLEARING', 'REVERSAL', 'REFUND')) = (authorization_id is not null))
);
-- Lists, newest first: the owner's, one card's, one account's.
create index card_transactions_owner on card_transactions (tenant_id, user_id, created_at desc, id desc);
create index card_transactions_card on card_transactions (card_id, created_at desc, id desc);
create index card_transactions_account on card_transactions (fiat_account_id, created_at desc, id desc);
-- An authorisation ends once: one clearing or one reversal, never both, never two.
create unique index card_transactions_one_end on card_transactions (authorization_id)
  where type in ('CLEARING', 'REVERSAL');
create index card_transactions_refunds on card_transactions (authorization_id)
  where type = 'REFUND';

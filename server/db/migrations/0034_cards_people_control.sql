-- Issue 30: cards people control — controls, lockdown, disputes, auto top-up.

-- Card controls (contract/card-controls.ts): the whole set as the API answers
-- it, read with the card by the network's authorisation; null until the
-- person first sets them (the defaults then apply: every channel but magstripe).
alter table cards add column controls jsonb;
-- A card frozen by a lockdown says so until the person unfreezes it, one by one.
alter table cards add column frozen_by_lockdown boolean not null default false;

-- How the card was presented, on authorisations (null before this migration).
alter table card_transactions add column channel text
  check (channel in ('online', 'contactless', 'chip', 'magstripe', 'atm'));
alter table card_transactions drop constraint card_transactions_decline_reason_check;
alter table card_transactions add constraint card_transactions_decline_reason_check
  check (decline_reason in ('CARD_FROZEN', 'CARD_BLOCKED', 'CARD_INACTIVE', 'CARD_CANCELED',
    'CARD_CLOSED', 'ACCOUNT_UNAVAILABLE', 'LIMIT_EXCEEDED', 'INSUFFICIENT_FUNDS',
    'THREE_DS_FAILED', 'CHANNEL_BLOCKED', 'CATEGORY_BLOCKED', 'COUNTRY_BLOCKED',
    'MERCHANT_BLOCKED', 'CATEGORY_LIMIT_EXCEEDED'));
-- A category limit's decline names its window the way a card limit's does.
alter table card_transactions drop constraint card_transactions_limit;
alter table card_transactions add constraint card_transactions_limit
  check ((decline_reason in ('LIMIT_EXCEEDED', 'CATEGORY_LIMIT_EXCEEDED'))
    = (exceeded_limit is not null));

-- The feed words a decline by its channel and shows a payment's dispute.
alter table activities add column card_channel text
  check (card_channel in ('online', 'contactless', 'chip', 'magstripe', 'atm'));
alter table activities add column dispute_id uuid;
alter table activities add column dispute_status text
  check (dispute_status in ('SUBMITTED', 'UNDER_REVIEW', 'WON', 'LOST'));
alter table activities add constraint activities_dispute
  check ((dispute_id is null) = (dispute_status is null));

-- Lockdowns: at most one active per person (the guard's one indexed lookup);
-- lifted ones stay as history.
create table lockdowns (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  reason text,
  via text not null check (via in ('app', 'push', 'telegram', 'email')),
  cards_frozen integer not null check (cards_frozen >= 0),
  sessions_ended integer not null check (sessions_ended >= 0),
  started_at timestamptz not null,
  lifted_at timestamptz,
  lifted_by_session_id uuid
);
create unique index lockdowns_active on lockdowns (tenant_id, user_id) where lifted_at is null;
create index lockdowns_person on lockdowns (tenant_id, user_id, started_at desc);

-- One-tap lockdown tokens are signed and carry their person and expiry
-- (domain/lockdown/links.ts); only their use is stored, so a token works once.
create table lockdown_link_uses (
  nonce text primary key,
  user_id uuid not null references users (id),
  used_at timestamptz not null default now()
);

-- The sandbox bot's "That wasn't me" button under an alert.
alter table sandbox_bot_messages add column lock_button_text text;
alter table sandbox_bot_messages add column lock_callback_data text;

-- Disputes: one per card payment (its authorisation), never more than it charged.
create table card_disputes (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  card_id uuid not null references cards (id),
  transaction_id uuid not null unique references card_transactions (id),
  reason text not null check (reason in ('fraud', 'not_received', 'duplicate', 'wrong_amount',
    'cancelled_subscription', 'other')),
  details text not null,
  status text not null check (status in ('SUBMITTED', 'UNDER_REVIEW', 'WON', 'LOST')),
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  -- The credit standing for it (provisional for fraud until won); null: none, or taken back.
  credited_minor numeric(78, 0) check (credited_minor > 0 and credited_minor <= amount_minor),
  credit_provisional boolean not null default false,
  credit_entry_id uuid,
  credited_at timestamptz,
  activity_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint card_disputes_credit check ((credited_minor is null) = (credited_at is null))
);
create index card_disputes_person on card_disputes (tenant_id, user_id, created_at desc, id desc);

-- Auto top-up of a balance card account, and one run per triggering clearing.
create table card_auto_top_ups (
  fiat_account_id uuid primary key references fiat_accounts (id),
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  enabled boolean not null,
  below_minor numeric(78, 0) check (below_minor > 0),
  top_up_to_minor numeric(78, 0),
  daily_cap_minor numeric(78, 0) check (daily_cap_minor > 0),
  from_wallet_id uuid,
  from_currency_uuid uuid references currencies (uuid),
  updated_at timestamptz not null default now(),
  constraint card_auto_top_ups_complete check (not enabled or (below_minor is not null
    and top_up_to_minor > below_minor and daily_cap_minor is not null
    and from_wallet_id is not null and from_currency_uuid is not null))
);
create table card_auto_top_up_runs (
  clearing_id uuid primary key references card_transactions (id),
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  fiat_account_id uuid not null references fiat_accounts (id),
  status text not null check (status in ('PENDING', 'PLACED', 'FAILED')),
  -- What arrives on the account (PLACED), or would have (FAILED).
  amount_minor numeric(78, 0) check (amount_minor >= 0),
  order_id uuid,
  failure text check (failure in ('INSUFFICIENT_FUNDS', 'DAILY_CAP_REACHED', 'RATES_UNAVAILABLE',
    'QUOTE_REFUSED', 'ACCOUNT_UNAVAILABLE', 'KYC_REQUIRED')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint card_auto_top_up_runs_outcome check ((status = 'FAILED') = (failure is not null)
    and (status = 'PLACED') = (order_id is not null))
);
create index card_auto_top_up_runs_account
  on card_auto_top_up_runs (fiat_account_id, created_at desc);

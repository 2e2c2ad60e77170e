-- Issue 14: the activity feed. One row per thing that happened to a person —
-- an exchange, a send, a deposit, a card payment, a top-up, a fee — however
-- many ledger records it wrote. Written in the same transaction as the money
-- movement it describes (server/domain/activity/record.ts), and changed in
-- place as it goes on (a status, a confirmation, a clearing, a refund); the
-- feed's order, (created_at, id), never changes, so keyset pages stay stable
-- while new items arrive. docs/decisions.md "Issue 14: activity" says why a
-- table and not a view.

create table activities (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  -- Whose feed it is in. A transfer to another person is two items, one each.
  user_id uuid not null references users (id),
  type text not null check (type in ('exchange', 'send', 'receive', 'transfer', 'deposit',
    'card_purchase', 'card_top_up', 'card_balance_return', 'fee')),
  status text not null
    check (status in ('pending', 'complete', 'failed', 'canceled', 'declined', 'reversed', 'refunded')),
  direction text not null check (direction in ('in', 'out', 'own')),
  -- What it was made from; one item per (source, type, person).
  source_type text not null check (source_type in ('order', 'card_transaction', 'wallet_transaction', 'card')),
  source_id uuid not null,
  order_type text,
  -- Where it shows: the wallet it belongs to, the person's other wallet when
  -- it spans two, the card and the card's fiat account.
  wallet_id uuid not null,
  counter_wallet_id uuid check (counter_wallet_id <> wallet_id),
  card_id uuid references cards (id),
  fiat_account_id uuid references fiat_accounts (id),
  card_last4 text check (card_last4 ~ '^[0-9]{4}$'),
  -- Money, in minor units, never negative: `direction` says which way.
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor >= 0),
  fee_minor numeric(78, 0) not null default 0 check (fee_minor >= 0),
  refunded_minor numeric(78, 0) not null default 0 check (refunded_minor >= 0),
  received_currency_uuid uuid references currencies (uuid),
  received_minor numeric(78, 0) check (received_minor >= 0),
  rate text,
  -- What a client words it with.
  counterparty_name text,
  merchant_name text,
  merchant_mcc text,
  merchant_city text,
  merchant_country text,
  address text,
  reference text,
  tx_hash text,
  confirmations integer check (confirmations >= 0),
  required_confirmations integer check (required_confirmations >= 0),
  fee_kind text check (fee_kind in ('ISSUE', 'MONTHLY')),
  failure_code text,
  -- Steps of items that are not orders ([{status, code, at, amount_minor}]);
  -- an order's timeline is its order_events.
  timeline jsonb not null default '[]',
  -- Lower-cased words `q` searches: merchant, counterparty, codes, last four, reference, address.
  search text not null default '',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (tenant_id, id),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  foreign key (tenant_id, counter_wallet_id) references wallets (tenant_id, id),
  constraint activities_received check ((received_currency_uuid is null) = (received_minor is null))
);

-- Each feed's pages walk one of these, newest first: a first page reads
-- `limit + 1` index entries whatever the feed's length (no count).
create index activities_person_feed on activities (tenant_id, user_id, created_at desc, id desc);
create index activities_wallet_feed on activities (wallet_id, created_at desc, id desc);
create index activities_counter_wallet_feed on activities (counter_wallet_id, created_at desc, id desc)
  where counter_wallet_id is not null;
create index activities_card_feed on activities (card_id, created_at desc, id desc)
  where card_id is not null;
create index activities_account_feed on activities (fiat_account_id, created_at desc, id desc)
  where fiat_account_id is not null;
-- One item per source, type and person: a repeated step finds its item.
create unique index activities_source on activities (source_id, source_type, type, user_id);

-- `search` follows the columns it is made of, whoever writes them.
create function activities_search_text() returns trigger language plpgsql as $$
begin
  new.search := lower(concat_ws(' ',
    new.merchant_name, new.merchant_city, new.counterparty_name,
    (select code from currencies where uuid = new.currency_uuid),
    (select code from currencies where uuid = new.received_currency_uuid),
    new.card_last4, new.reference, new.address, new.tx_hash));
  return new;
end
$$;
create trigger activities_search
  before insert or update of merchant_name, merchant_city, counterparty_name, currency_uuid,
    received_currency_uuid, card_last4, reference, address, tx_hash
  on activities for each row execute function activities_search_text();

-- Every record says which item it belongs to. Deferred: a writer may insert
-- the record first (to learn whether it is new) and its item after it.
alter table wallet_transactions add column activity_id uuid;
alter table wallet_transactions add constraint wallet_transactions_activity
  foreign key (tenant_id, activity_id) references activities (tenant_id, id)
  deferrable initially deferred;
create index wallet_transactions_activity on wallet_transactions (activity_id)
  where activity_id is not null;

alter table card_transactions add column activity_id uuid;
alter table card_transactions add constraint card_transactions_activity
  foreign key (tenant_id, activity_id) references activities (tenant_id, id)
  deferrable initially deferred;
create index card_transactions_activity on card_transactions (activity_id)
  where activity_id is not null;

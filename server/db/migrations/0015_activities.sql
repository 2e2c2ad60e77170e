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

-- ---------------------------------------------------------------------------
-- The items of everything that happened before this migration, written the
-- way server/domain/activity/record.ts writes them now (activity.test.ts
-- compares the two). Kept as a function, run once below: the test runs it
-- again on a database the live writers filled. Items already there are left
-- alone (the unique source index), and only records without an item are claimed.

create function activities_backfill() returns void language plpgsql as $$
begin
  -- Orders: the payer's item. An order's rail decides what it is
  -- (orders/rules.ts railOf, activity/rules.ts orderShape).
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    order_type, wallet_id, counter_wallet_id, fiat_account_id, currency_uuid, amount_minor,
    fee_minor, received_currency_uuid, received_minor, rate, counterparty_name, address,
    reference, tx_hash, failure_code, created_at, updated_at)
  select gen_random_uuid(), o.tenant_id, o.user_id, k.type,
    case o.status when 'NEW' then 'pending' when 'PENDING' then 'pending'
      when 'COMPLETE' then 'complete' when 'CANCELED' then 'canceled' else 'failed' end,
    k.direction, 'order', o.id, o.order_type, o.wallet_id,
    case when k.direction = 'own' and k.rail <> 'fiat_account' and k.lands <> o.wallet_id
      then k.lands end,
    coalesce(o.fiat_account_id, (o.target->>'fiat_account_id')::uuid),
    case when k.type = 'deposit' then o.to_currency_uuid else o.from_currency_uuid end,
    case when k.type = 'deposit' then o.amount_to_minor else o.amount_from_minor end,
    coalesce((select sum((f->>'amount_minor')::numeric) from jsonb_array_elements(o.fees) f), 0),
    case when k.direction = 'own' then o.to_currency_uuid end,
    case when k.direction = 'own' then o.amount_to_minor end,
    case when o.from_currency_uuid <> o.to_currency_uuid then o.rate end,
    coalesce(o.payee->>'beneficiary',
      (select coalesce(c.legal_name, nullif(concat_ws(' ', c.first_name, c.last_name), ''))
        from counterparties c where c.id = (o.target->>'counterparty_account_id')::uuid),
      bt.sender_name),
    coalesce(o.payee->>'iban', o.target->>'address', bt.sender_iban),
    o.deposit_reference, o.tx_hash, o.failure_code, o.created_at, o.updated_at
  from orders o
  left join bank_transfers bt on bt.order_id = o.id
  cross join lateral (
    select r.rail, r.lands,
      case r.rail when 'bank_in' then 'deposit' when 'bank_out' then 'send' when 'chain' then 'send'
        when 'wallet' then case when r.own then 'transfer' else 'send' end
        when 'exchange' then 'exchange' else 'card_top_up' end as type,
      case r.rail when 'bank_in' then 'in' when 'bank_out' then 'out' when 'chain' then 'out'
        when 'wallet' then case when r.own then 'own' else 'out' end else 'own' end as direction
    from (
      select x.rail, x.lands,
        x.rail <> 'wallet' or (select w.user_id from wallets w where w.id = x.lands) = o.user_id as own
      from (
        select
          case
            when o.order_type in ('DEPOSIT_FIAT_SEPA', 'DEPOSIT_FIAT_SWIFT') then 'bank_in'
            when o.order_type = 'WITHDRAWAL_FIAT_SEPA' then 'bank_out'
            when o.order_type = 'WITHDRAWAL_CRYPTO' then
              case when o.target->>'wallet_uuid' is not null then 'wallet' else 'chain' end
            when o.order_type = 'EXCHANGE_CRYPTO_INTERNAL' then 'exchange'
            else 'fiat_account'
          end as rail,
          coalesce((o.target->>'wallet_uuid')::uuid, o.wallet_id) as lands
      ) x
    ) r
  ) k
  on conflict (source_id, source_type, type, user_id) do nothing;

  -- Another person's transfer that arrived: their `receive` item, at its arrival.
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    order_type, wallet_id, currency_uuid, amount_minor, counterparty_name, timeline,
    created_at, updated_at)
  select gen_random_uuid(), o.tenant_id, w.user_id, 'receive', 'complete', 'in', 'order', o.id,
    o.order_type, w.id, o.to_currency_uuid, o.amount_to_minor,
    nullif(concat_ws(' ', p.first_name, p.last_name), ''),
    jsonb_build_array(jsonb_build_object('status', 'complete', 'code', 'DELIVERED_TO_WALLET',
      'at', to_char(arrived.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null)),
    arrived.at, arrived.at
  from orders o
  join wallets w on w.id = (o.target->>'wallet_uuid')::uuid
  left join user_profiles p on p.user_id = o.user_id
  cross join lateral (
    select coalesce(min(t.created_at), o.updated_at) as at from wallet_transactions t
    where t.operation_id = o.id and t.wallet_id = w.id
  ) arrived
  where o.order_type = 'WITHDRAWAL_CRYPTO' and o.status = 'COMPLETE' and w.user_id <> o.user_id
  on conflict (source_id, source_type, type, user_id) do nothing;

  -- An order's records belong to the item of the person whose wallet they are in.
  update wallet_transactions t set activity_id = a.id
  from activities a, wallets w
  where t.activity_id is null and a.source_type = 'order' and a.source_id = t.operation_id
    and w.id = t.wallet_id and a.user_id = w.user_id;
  update card_transactions c set activity_id = a.id
  from activities a
  where c.activity_id is null and c.type = 'DEPOSIT' and a.source_type = 'order'
    and a.source_id = c.operation_id and a.user_id = c.user_id;

  -- Crypto deposits.
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    wallet_id, currency_uuid, amount_minor, address, tx_hash, confirmations,
    required_confirmations, timeline, created_at, updated_at)
  select gen_random_uuid(), t.tenant_id, w.user_id, 'deposit',
    case t.status when 'complete' then 'complete' when 'failed' then 'failed'
      when 'canceled' then 'canceled' else 'pending' end,
    'in', 'wallet_transaction', t.id, t.wallet_id, t.currency_uuid, t.amount_minor, t.address,
    t.tx_hash, t.confirmations, case when t.status = 'complete' then t.confirmations end,
    jsonb_build_array(jsonb_build_object('status', 'pending', 'code', 'DETECTED',
      'at', to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null))
    || case when t.status = 'complete' then jsonb_build_array(jsonb_build_object(
      'status', 'complete', 'code', 'CONFIRMED',
      'at', to_char(t.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null)) else '[]'::jsonb end,
    t.created_at, t.updated_at
  from wallet_transactions t join wallets w on w.id = t.wallet_id
  where t.activity_id is null and t.record_type = 'DEPOSIT_CRYPTO_EXTERNAL'
  on conflict (source_id, source_type, type, user_id) do nothing;
  update wallet_transactions t set activity_id = a.id
  from activities a
  where t.activity_id is null and t.record_type = 'DEPOSIT_CRYPTO_EXTERNAL'
    and a.source_type = 'wallet_transaction' and a.source_id = t.id;

  -- Card payments: the authorisation, its clearing or reversal and its refunds, one item.
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    wallet_id, card_id, fiat_account_id, card_last4, currency_uuid, amount_minor, refunded_minor,
    merchant_name, merchant_mcc, merchant_city, merchant_country, failure_code, timeline,
    created_at, updated_at)
  select gen_random_uuid(), a.tenant_id, a.user_id, 'card_purchase',
    case a.status when 'APPROVED' then 'pending' when 'REVERSED' then 'reversed'
      when 'DECLINED' then 'declined'
      else case when s.refunded >= s.cleared then 'refunded' else 'complete' end end,
    'out', 'card_transaction', a.id, a.wallet_id, a.card_id, a.fiat_account_id, k.last4,
    a.currency_uuid, case when a.status = 'SETTLED' then s.cleared else a.amount_minor end,
    s.refunded, a.merchant_name, a.merchant_mcc, a.merchant_city, a.merchant_country,
    a.decline_reason,
    jsonb_build_array(jsonb_build_object(
      'status', case a.status when 'DECLINED' then 'declined' else 'pending' end,
      'code', case a.status when 'DECLINED' then 'DECLINED' else 'AUTHORIZED' end,
      'at', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null)) || s.steps,
    a.created_at, greatest(a.updated_at, s.last_at)
  from card_transactions a
  join cards k on k.id = a.card_id
  cross join lateral (
    select coalesce(sum(f.amount_minor) filter (where f.type = 'CLEARING'), 0) as cleared,
      coalesce(sum(f.amount_minor) filter (where f.type = 'REFUND'), 0) as refunded,
      max(f.created_at) as last_at,
      coalesce(jsonb_agg(jsonb_build_object(
        'status', case f.type when 'CLEARING' then 'complete' when 'REVERSAL' then 'reversed'
          else case when f.refunded_so_far >= f.cleared then 'refunded' else 'complete' end end,
        'code', case f.type when 'CLEARING' then 'CLEARED' when 'REVERSAL' then 'REVERSED'
          else 'REFUNDED' end,
        'at', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'amount_minor', f.amount_minor::text) order by f.created_at, f.id), '[]'::jsonb) as steps
    from (
      select g.*,
        sum(g.amount_minor) filter (where g.type = 'REFUND') over (order by g.created_at, g.id)
          as refunded_so_far,
        (select coalesce(sum(h.amount_minor), 0) from card_transactions h
          where h.authorization_id = a.id and h.type = 'CLEARING') as cleared
      from card_transactions g where g.authorization_id = a.id
    ) f
  ) s
  where a.type = 'AUTHORIZATION'
  on conflict (source_id, source_type, type, user_id) do nothing;
  update card_transactions c set activity_id = a.id
  from activities a
  where c.activity_id is null and a.source_type = 'card_transaction' and a.type = 'card_purchase'
    and a.source_id = coalesce(c.authorization_id, c.id)
    and (c.type = 'AUTHORIZATION' or c.authorization_id is not null);
  -- Money a payment released to the wallet (its account was closed): written with its step.
  update wallet_transactions t set activity_id = f.activity_id
  from card_transactions f
  where t.activity_id is null and t.record_type = 'CARD_PROVIDER_REFUND'
    and t.operation_id = f.card_id and f.authorization_id is not null
    and f.created_at = t.created_at and f.activity_id is not null;

  -- Program fees paid from a card's account.
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    wallet_id, card_id, fiat_account_id, card_last4, currency_uuid, amount_minor, fee_kind,
    failure_code, timeline, created_at, updated_at)
  select gen_random_uuid(), c.tenant_id, c.user_id, 'fee',
    case c.status when 'DECLINED' then 'declined' else 'complete' end, 'out',
    'card_transaction', c.id, c.wallet_id, c.card_id, c.fiat_account_id, k.last4,
    c.currency_uuid, c.amount_minor, c.fee_kind, c.decline_reason,
    jsonb_build_array(jsonb_build_object(
      'status', case c.status when 'DECLINED' then 'declined' else 'complete' end,
      'code', case c.status when 'DECLINED' then 'DECLINED' else 'CHARGED' end,
      'at', to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null)),
    c.created_at, c.created_at
  from card_transactions c join cards k on k.id = c.card_id
  where c.type = 'FEE'
  on conflict (source_id, source_type, type, user_id) do nothing;
  update card_transactions c set activity_id = a.id
  from activities a
  where c.activity_id is null and c.type = 'FEE' and a.source_type = 'card_transaction'
    and a.source_id = c.id;

  -- What the wallet paid or got back for a card: a stand-alone card's issue fee, a closed
  -- card's balance (the record's operation_id is the card).
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    wallet_id, card_id, fiat_account_id, card_last4, currency_uuid, amount_minor, fee_kind,
    timeline, created_at, updated_at)
  select gen_random_uuid(), t.tenant_id, k.user_id,
    case t.record_type when 'FEE' then 'fee' else 'card_balance_return' end,
    'complete', case t.record_type when 'FEE' then 'out' else 'in' end,
    'card', k.id, t.wallet_id, k.id, k.fiat_account_id, k.last4, t.currency_uuid, t.amount_minor,
    case t.record_type when 'FEE' then 'ISSUE' end,
    jsonb_build_array(jsonb_build_object('status', 'complete',
      'code', case t.record_type when 'FEE' then 'CHARGED' else 'RETURNED' end,
      'at', to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'amount_minor', null)),
    t.created_at, t.created_at
  from wallet_transactions t join cards k on k.id = t.operation_id
  where t.activity_id is null and t.record_type in ('FEE', 'CARD_PROVIDER_REFUND')
  on conflict (source_id, source_type, type, user_id) do nothing;
  update wallet_transactions t set activity_id = a.id
  from activities a, cards k
  where t.activity_id is null and t.record_type in ('FEE', 'CARD_PROVIDER_REFUND')
    and k.id = t.operation_id and a.source_type = 'card' and a.source_id = k.id
    and a.type = case t.record_type when 'FEE' then 'fee' else 'card_balance_return' end;

  -- Anything else (records written straight, like an older demo seed's): one item per
  -- operation and wallet, worded by its main record, its FEE records as its fee.
  insert into activities (id, tenant_id, user_id, type, status, direction, source_type, source_id,
    wallet_id, currency_uuid, amount_minor, fee_minor, received_currency_uuid, received_minor,
    address, created_at, updated_at)
  select gen_random_uuid(), m.tenant_id, w.user_id, m.item_type,
    case m.status when 'complete' then 'complete' when 'failed' then 'failed'
      when 'canceled' then 'canceled' else 'pending' end,
    m.item_direction, 'wallet_transaction', m.id, m.wallet_id, m.currency_uuid,
    m.amount_minor, case when m.item_type = 'fee' then 0 else m.fees end,
    case when m.item_direction = 'own' then m.currency_uuid end,
    case when m.item_direction = 'own' then m.amount_minor end,
    m.address, m.created_at, m.updated_at
  from (
    select distinct on (t.wallet_id, coalesce(t.operation_id, t.id)) t.*,
      case
        when t.record_type in ('CARD_PROVIDER_DEPOSIT', 'WHOLESALE_CARD_DEPOSIT') then 'card_top_up'
        when t.record_type in ('FEE', 'NETWORK_FEE') then 'fee'
        when t.type = 'deposit' then 'deposit'
        else 'send' end as item_type,
      case
        when t.record_type in ('CARD_PROVIDER_DEPOSIT', 'WHOLESALE_CARD_DEPOSIT') then 'own'
        when t.type = 'deposit' then 'in'
        else 'out' end as item_direction,
      (select coalesce(sum(x.amount_minor), 0) from wallet_transactions x
        where x.wallet_id = t.wallet_id and x.activity_id is null
          and x.operation_id = t.operation_id and x.record_type in ('FEE', 'NETWORK_FEE')) as fees
    from wallet_transactions t
    where t.activity_id is null
    order by t.wallet_id, coalesce(t.operation_id, t.id),
      t.record_type in ('FEE', 'NETWORK_FEE'), t.created_at, t.id
  ) m
  join wallets w on w.id = m.wallet_id
  on conflict (source_id, source_type, type, user_id) do nothing;
  update wallet_transactions t set activity_id = a.id
  from activities a, wallet_transactions m
  where t.activity_id is null and a.source_type = 'wallet_transaction' and a.source_id = m.id
    and m.wallet_id = t.wallet_id and coalesce(m.operation_id, m.id) = coalesce(t.operation_id, t.id);
  -- A top-up's DEPOSIT on the card account belongs where the wallet's side of it went.
  update card_transactions c set activity_id = t.activity_id
  from wallet_transactions t
  where c.activity_id is null and c.type = 'DEPOSIT' and t.operation_id = c.operation_id
    and t.record_type in ('CARD_PROVIDER_DEPOSIT', 'WHOLESALE_CARD_DEPOSIT')
    and t.activity_id is not null;
end
$$;

select activities_backfill();

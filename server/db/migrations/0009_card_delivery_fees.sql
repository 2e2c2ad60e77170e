-- Issue 6, the rest: delivery of physical cards, program fees, idempotent card
-- creation and processor messages, and top-ups written as card transactions.

-- A physical card is delivered to an address; the sandbox courier (a job)
-- moves its delivery ORDERED → SHIPPED → DELIVERED. Virtual cards have none.
alter table cards add column delivery_address jsonb;
alter table cards add column delivery_status text
  check (delivery_status in ('ORDERED', 'SHIPPED', 'DELIVERED'));
alter table cards add column delivery_updated_at timestamptz;
alter table cards add constraint cards_delivery check (
  (delivery_address is null) = (delivery_status is null)
  and (delivery_status is null) = (delivery_updated_at is null)
  and (delivery_status is null or form_factor = 'PHYSICAL'));

-- Activation proves possession with the CVV printed on the card. Wrong codes
-- are counted here, not in memory, so restarts and replicas do not reset the
-- bound: `activation_failures` within the hour from `activation_failed_since`.
alter table cards add column activation_failures integer not null default 0
  check (activation_failures >= 0);
alter table cards add column activation_failed_since timestamptz;

-- POST /issuing/cards/create and /balance under a request_id or an
-- Idempotency-Key: the first answer, kept for the same request again. The row
-- is written first in the issuing transaction, so a second request under the
-- same key waits for the first and then replays it (the card comes after it,
-- hence the deferred reference).
create table card_create_requests (
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  request_key text not null,
  -- SHA-256 (hex) of the route and the body without request_id.
  request_hash text not null,
  card_id uuid not null references cards (id) deferrable initially deferred,
  first_response jsonb,
  created_at timestamptz not null default now(),
  primary key (tenant_id, user_id, request_key)
);

-- A top-up lands on a fiat account, not on a card: DEPOSIT (and WITHDRAWAL)
-- records may have no card.
alter table card_transactions alter column card_id drop not null;
alter table card_transactions add constraint card_transactions_card
  check (card_id is not null or type in ('DEPOSIT', 'WITHDRAWAL'));

-- Program fees: FEE records say which (ISSUE, or MONTHLY for the month
-- `fee_period`, 'YYYY-MM' of the anniversary); each is charged once per card.
alter table card_transactions add column fee_kind text check (fee_kind in ('ISSUE', 'MONTHLY'));
alter table card_transactions add column fee_period text check (fee_period ~ '^[0-9]{4}-[0-9]{2}$');
alter table card_transactions add constraint card_transactions_fee check (
  (type = 'FEE') = (fee_kind is not null)
  and (fee_period is null or fee_kind = 'MONTHLY')
  and (fee_kind is distinct from 'MONTHLY' or fee_period is not null));
create unique index card_transactions_one_fee
  on card_transactions (card_id, fee_kind, coalesce(fee_period, '')) where type = 'FEE';

-- A DEPOSIT's operation (the top-up order): one record per operation.
alter table card_transactions add column operation_id uuid;
create unique index card_transactions_one_deposit
  on card_transactions (operation_id) where type = 'DEPOSIT';

-- Processor messages may carry the network's message id: unique per card, so
-- a network retry answers the stored record instead of a second one.
-- `message_hash` (SHA-256 hex of the message) tells a retry from a reuse.
alter table card_transactions add column network_message_id text;
alter table card_transactions add column message_hash text;
alter table card_transactions add constraint card_transactions_network_message
  check ((network_message_id is null) = (message_hash is null));
create unique index card_transactions_network_message_once
  on card_transactions (card_id, network_message_id) where network_message_id is not null;

-- Issue 15: server speed.

-- One table for every idempotency key (domain/idempotency.ts runIdempotent):
-- claimed first in the transaction that does the work, holding the first
-- answer once it commits. A second request under the same key waits on the
-- claim, then replays the answer (the same request) or is refused (another).
-- Scopes: `order` (owner: the user), `card_issue` (the user), `card_message`
-- (the card: the network's message ids are unique per card).
create table idempotency_keys (
  tenant_id uuid not null references tenants (id),
  scope text not null check (scope in ('order', 'card_issue', 'card_message')),
  owner_id uuid not null,
  key text not null check (length(key) between 1 and 200),
  -- SHA-256 (hex) of the request's canonical text (canonicalHash).
  request_hash text not null,
  -- The first answer; null only inside the claiming transaction.
  answer jsonb,
  created_at timestamptz not null default now(),
  primary key (tenant_id, scope, owner_id, key)
);

insert into idempotency_keys (tenant_id, scope, owner_id, key, request_hash, answer, created_at)
select tenant_id, 'order', user_id, request_id, request_hash, first_response, created_at
from orders;

insert into idempotency_keys (tenant_id, scope, owner_id, key, request_hash, answer, created_at)
select tenant_id, 'card_issue', user_id, request_key, request_hash, first_response, created_at
from card_create_requests;

insert into idempotency_keys (tenant_id, scope, owner_id, key, request_hash, answer, created_at)
select tenant_id, 'card_message', card_id, network_message_id, message_hash,
  jsonb_build_object('id', id), created_at
from card_transactions
where network_message_id is not null;

-- The answers live in idempotency_keys now.
alter table orders drop column first_response;
drop table card_create_requests;

-- An order's records follow its status (orders/repository.ts moveOrder):
-- found by the order, not by scanning every record of the tenant.
create index wallet_transactions_operation on wallet_transactions (operation_id)
  where operation_id is not null;

-- The sandbox demo, seeded whole (domain/sandbox/demo-seed.ts): a start that
-- finds its version here seeds nothing, instead of walking every demo item
-- again on the way to answering its first request.
create table demo_seeds (
  tenant_id uuid primary key references tenants (id),
  version integer not null,
  seeded_at timestamptz not null default now()
);

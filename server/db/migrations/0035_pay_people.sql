-- Issue 32: people pay people — instant transfers inside a tenant, claimable
-- transfers to a contact who is not a customer yet, payment requests, and
-- schedules that repeat a transfer, an exchange or a withdrawal.

-- The note a person types on a payment is issue 27's `activities.note` (0029):
-- it shows wherever the item does and `q` finds it.

-- A transfer between people is an item of its own source.
alter table activities drop constraint activities_source_type_check;
alter table activities add constraint activities_source_type_check
  check (source_type in ('order', 'card_transaction', 'wallet_transaction', 'card', 'transfer'));

-- Whether other people of the tenant may find the person by e-mail, phone or
-- Telegram username (GET /people/lookup). On for Telegram sign-ups, whose
-- username Telegram itself makes searchable; off for everyone else
-- (docs/decisions.md). The Telegram users who signed up before this, too.
alter table user_profiles add column people_discoverable boolean not null default false;
update user_profiles p set people_discoverable = true
from users u where u.id = p.user_id and u.telegram_id is not null;
create index user_profiles_username on user_profiles (tenant_id, lower(username))
  where username is not null;

-- Above this, in the tenant's display currency, a first payment to someone new
-- needs the second look (route-policy.ts). Zero: every first payment does.
alter table tenants add column new_payee_step_up_amount numeric(30, 2) not null default 100
  check (new_payee_step_up_amount >= 0);

-- The sandbox outbox also keeps the invitations a claimable transfer sends.
alter table sandbox_outbox drop constraint sandbox_outbox_purpose_check;
alter table sandbox_outbox add constraint sandbox_outbox_purpose_check
  check (purpose in ('sign_in', 'change_email', 'change_phone', 'step_up', 'password_reset',
    'security_notice', 'transfer_invite'));
alter table sandbox_outbox drop constraint sandbox_outbox_code_check;
alter table sandbox_outbox add constraint sandbox_outbox_code_check
  check ((code is null) = (purpose in ('security_notice', 'transfer_invite')));

-- One payment from one person to another of the same tenant. COMPLETE at once
-- when the recipient is a customer who may be found; else AWAITING_CLAIM, the
-- money in the sender wallet's `held` account until the contact signs up
-- (COMPLETE, with a recipient) or seven days pass (RETURNED).
create table transfers (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  sender_id uuid not null references users (id),
  sender_wallet_id uuid not null,
  recipient_id uuid references users (id),
  recipient_wallet_id uuid,
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  note text check (length(note) <= 140),
  status text not null check (status in ('COMPLETE', 'AWAITING_CLAIM', 'RETURNED')),
  -- The contact a claimable transfer waits for, normalised (rules.ts normaliseContact).
  contact_channel text check (contact_channel in ('email', 'phone', 'telegram_username')),
  contact text,
  -- What the sender calls the recipient: the display name, else the contact typed.
  recipient_name text not null,
  sender_name text not null,
  payment_request_id uuid,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  foreign key (tenant_id, sender_wallet_id) references wallets (tenant_id, id),
  foreign key (tenant_id, recipient_wallet_id) references wallets (tenant_id, id),
  check ((status = 'COMPLETE') = (recipient_id is not null and recipient_wallet_id is not null)),
  check (status = 'COMPLETE' or (contact is not null and expires_at is not null))
);
-- A person's recent people, and whether a payee is new: by sender, newest first.
create index transfers_sender on transfers (tenant_id, sender_id, created_at desc);
create index transfers_recipient on transfers (tenant_id, recipient_id, created_at desc)
  where recipient_id is not null;
-- The transfers a newcomer's contact claims.
create index transfers_claimable on transfers (tenant_id, contact_channel, contact)
  where status = 'AWAITING_CLAIM';

-- Someone asks to be paid: anyone with the link sees who asks, how much and
-- for what; one payer pays it, once.
create table payment_requests (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  requester_id uuid not null references users (id),
  wallet_id uuid not null,
  currency_uuid uuid not null references currencies (uuid),
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  note text check (length(note) <= 140),
  status text not null default 'OPEN' check (status in ('OPEN', 'PAID', 'CANCELED')),
  expires_at timestamptz,
  payer_id uuid references users (id),
  transfer_id uuid references transfers (id),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  foreign key (tenant_id, wallet_id) references wallets (tenant_id, id),
  check ((status = 'PAID') = (transfer_id is not null))
);
create index payment_requests_requester on payment_requests (tenant_id, requester_id, created_at desc);
alter table transfers add foreign key (payment_request_id) references payment_requests (id);

-- A payment that repeats: each occurrence of `rrule` in the person's time zone
-- is run once, as an ordinary transfer or order (schedules/service.ts).
create table schedules (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  kind text not null check (kind in ('transfer', 'exchange', 'withdrawal')),
  template jsonb not null check (jsonb_typeof(template) = 'object'),
  rrule text not null,
  starts_at timestamptz not null,
  ends_at timestamptz,
  time_zone text not null,
  max_slippage_bps integer check (max_slippage_bps between 0 and 10000),
  -- An exchange's rate when it was set up: a run whose price moved past
  -- max_slippage_bps against the person is skipped.
  reference_rate text,
  status text not null default 'ACTIVE' check (status in ('ACTIVE', 'PAUSED', 'ENDED', 'DELETED')),
  -- The occurrence the job runner runs next; null once there is none.
  next_run_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index schedules_user on schedules (tenant_id, user_id, created_at desc)
  where status <> 'DELETED';

-- One row per occurrence, made when it is run (or skipped): the unique key is
-- what makes each occurrence run once, whichever process gets to it and
-- however often a crash makes it try again.
create table schedule_runs (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  schedule_id uuid not null references schedules (id),
  occurrence_at timestamptz not null,
  status text not null default 'RUNNING'
    check (status in ('RUNNING', 'COMPLETE', 'FAILED', 'SKIPPED')),
  -- Why it failed or was skipped (INSUFFICIENT_FUNDS, PRICE_MOVED, SKIPPED_BY_YOU, …).
  reason text,
  order_id uuid,
  transfer_id uuid references transfers (id),
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (schedule_id, occurrence_at)
);

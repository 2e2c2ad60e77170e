-- Issue 20: events. Anything another party must hear about is written to
-- `events` in the same transaction as the change it reports (the outbox:
-- an event exists if and only if its change committed). A job
-- (`events.dispatch`, enqueued in that same transaction) fans it out.

create table events (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  -- The person it is about: their channels and their own endpoints hear it.
  user_id uuid not null references users (id),
  kind text not null,
  -- The payload's version (contract/events.ts): a breaking change bumps it.
  version integer not null check (version >= 1),
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index events_tenant_created on events (tenant_id, created_at desc);

-- The in-app notification centre: one row per event for its person.
create table notifications (
  event_id uuid primary key references events (id) on delete cascade,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  created_at timestamptz not null,
  read_at timestamptz
);
create index notifications_user_created on notifications (user_id, created_at desc, event_id desc);
create index notifications_user_unread on notifications (user_id) where read_at is null;

-- Developer webhook endpoints: a person's (user_id set: they see only their
-- own events) or the tenant's (user_id null, set with `npm run tenant`: every
-- event of the tenant). The secret signs the Standard Webhooks way; after a
-- rotation the previous one keeps signing too until previous_secret_expires_at.
create table webhook_endpoints (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid references users (id),
  url text not null check (length(url) <= 2048),
  description text not null default '' check (length(description) <= 200),
  -- Event kinds it wants; an empty list: every kind.
  event_kinds jsonb not null default '[]',
  enabled boolean not null default true,
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_owner on webhook_endpoints (tenant_id, user_id);

-- A browser's push subscription (one per device and person).
create table push_subscriptions (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  endpoint text not null unique check (length(endpoint) <= 2048),
  p256dh text not null,
  auth text not null,
  user_agent text,
  created_at timestamptz not null default now()
);
create index push_subscriptions_user on push_subscriptions (user_id);

-- Kinds a person does not want outside the app (push and Telegram); no row: wanted.
create table notification_mutes (
  user_id uuid not null references users (id),
  kind text not null,
  tenant_id uuid not null references tenants (id),
  primary key (user_id, kind)
);

-- One row per event and destination: the key that makes a delivery happen
-- once however often its job runs, and the log the developer area shows.
create table event_deliveries (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  event_id uuid not null references events (id) on delete cascade,
  channel text not null check (channel in ('webhook', 'push', 'telegram')),
  -- The endpoint's id, the push subscription's id, or the Telegram chat id.
  destination text not null,
  endpoint_id uuid references webhook_endpoints (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  last_attempt_at timestamptz,
  response_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (event_id, channel, destination)
);
create index event_deliveries_endpoint on event_deliveries (endpoint_id, created_at desc);

-- What the sandbox Telegram bot "sent" (GET /api/sandbox/outbox/telegram).
create table sandbox_bot_messages (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  chat_id text not null,
  text text not null,
  button_text text,
  button_url text,
  created_at timestamptz not null default now()
);
create index sandbox_bot_messages_chat on sandbox_bot_messages (chat_id, created_at desc);

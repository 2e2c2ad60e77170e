-- Identity verification (issue 8). users.kyc_status (0001) stays the one
-- status the gates read; these tables say how it got there.
--
-- kyc_verifications: one row per submission to the provider (the sandbox's
-- applicant form, or a Sumsub applicant), with what the sandbox needs to
-- decide it. kyc_status_history: every status the person's verification has
-- had, newest last, with the provider's reason. kyc_webhook_events: every
-- provider event seen, keyed by a digest of its body, so a redelivery changes
-- nothing twice and an older event never undoes a newer one.

create table kyc_verifications (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  provider text not null check (provider in ('sandbox', 'sumsub')),
  first_name text,
  last_name text,
  document_type text check (document_type in ('PASSPORT', 'ID_CARD', 'DRIVING_LICENCE')),
  country text check (country ~ '^[A-Z]{2}$'),
  status text not null
    check (status in ('APPROVED', 'DECLINED', 'PENDING', 'HOLD', 'DOUBLE', 'SOFT_REJECT', 'REJECT', 'UNVERIFIED')),
  submitted_at timestamptz not null default now(),
  decided_at timestamptz
);
create index kyc_verifications_user on kyc_verifications (tenant_id, user_id, submitted_at desc);

create table kyc_status_history (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id) on delete cascade,
  status text not null
    check (status in ('APPROVED', 'DECLINED', 'PENDING', 'HOLD', 'DOUBLE', 'SOFT_REJECT', 'REJECT', 'UNVERIFIED')),
  reason text,
  -- Who moved it: the person's submission, the sandbox's rules or its operator, the provider's webhook, the demo seed.
  source text not null
    check (source in ('applicant', 'sandbox_rules', 'sandbox_decision', 'webhook', 'seed')),
  -- When the provider says it happened (a webhook's createdAtMs); else when we recorded it.
  occurred_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index kyc_status_history_user on kyc_status_history (tenant_id, user_id, id desc);
create index kyc_status_history_webhooks on kyc_status_history (tenant_id, user_id, occurred_at desc)
  where source = 'webhook';

create table kyc_webhook_events (
  -- Hex SHA-256 of the raw body: a redelivery is byte for byte the same.
  event_key text primary key,
  tenant_id uuid references tenants (id),
  user_id uuid references users (id) on delete cascade,
  type text not null,
  occurred_at timestamptz,
  outcome text not null check (outcome in ('applied', 'ignored', 'stale')),
  received_at timestamptz not null default now()
);

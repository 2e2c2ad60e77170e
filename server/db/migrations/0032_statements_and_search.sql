-- Issue 31: understand your money — statements, and searching the activity feed.

-- ---------------------------------------------------------------------------
-- Statements: a period of one wallet, fiat account or card, rendered by a job
-- (server/domain/statements/) into a file kept here, in the database: every
-- node behind the load balancer can hand it out, a backup holds it with the
-- ledger it was drawn from, and a statement is small (tens of kilobytes a
-- month). docs/decisions.md "Issue 31" says why not DATA_DIR.

create table statements (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  user_id uuid not null references users (id),
  scope_type text not null check (scope_type in ('wallet', 'fiat_account', 'card')),
  scope_id uuid not null,
  period_from timestamptz not null,
  period_to timestamptz not null,
  format text not null check (format in ('pdf', 'csv', 'json')),
  language text not null check (language in ('en', 'ru')),
  time_zone text not null,
  status text not null check (status in ('queued', 'rendering', 'ready', 'failed')),
  progress integer not null default 0 check (progress between 0 and 100),
  -- Printed on the file; the public verify route finds it by this (Crockford base32).
  code text not null unique check (code ~ '^[0-9A-HJKMNP-TV-Z]{12}$'),
  -- All the verify route may tell, fixed when the statement was asked for.
  holder_initials text not null,
  account_last4 text not null,
  -- The file, once rendered, and its SHA-256 (hex).
  sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
  file bytea,
  file_name text,
  content_type text,
  -- A link to the file that needs no sign-in (Telegram's downloadFile fetches it
  -- itself): the SHA-256 of its random token, good until it expires.
  link_hash text unique,
  link_expires_at timestamptz,
  -- An idempotency key and the hash of the request it came with.
  request_id text check (length(request_id) between 1 and 200),
  request_hash text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (tenant_id, id),
  constraint statements_period check (period_to > period_from),
  constraint statements_ready check ((status = 'ready') = (file is not null)),
  constraint statements_file check ((file is null) = (sha256 is null))
);
create index statements_owner on statements (tenant_id, user_id, created_at desc, id desc);
create unique index statements_request on statements (tenant_id, user_id, request_id)
  where request_id is not null;
-- Checking a file by its hash (POST /api/statements/verify).
create index statements_sha256 on statements (sha256) where sha256 is not null;

-- ---------------------------------------------------------------------------
-- Searching the feed (GET /api/v2/activity `q`, `min`, `max`, `status`).

-- `q` is a substring (LIKE '%…%') of `search`: without an index a rare word
-- walks the person's whole feed. Trigrams find the few rows that hold it.
-- fastupdate off: rows go into the index as they are written, not into a
-- pending list every search scans whole until a VACUUM — which PGlite, with
-- no autovacuum, never runs.
create extension if not exists pg_trgm;
create index activities_search_trgm on activities using gin (search gin_trgm_ops)
  with (fastupdate = off);

-- `min`/`max` bound the amount in its own currency: the decimal value, kept
-- beside the minor units by a trigger of its own (the `search` one is left
-- as it is), indexed per person for a narrow range.
alter table activities add column amount_value numeric;
create function activities_amount_value() returns trigger language plpgsql as $$
begin
  new.amount_value := new.amount_minor
    / power(10::numeric, (select decimals from currencies where uuid = new.currency_uuid));
  return new;
end
$$;
create trigger activities_amount
  before insert or update of amount_minor, currency_uuid
  on activities for each row execute function activities_amount_value();
update activities a set amount_value = a.amount_minor / power(10::numeric, c.decimals)
  from currencies c where c.uuid = a.currency_uuid;
alter table activities alter column amount_value set not null;
create index activities_person_amount on activities (tenant_id, user_id, amount_value);

-- A status few items have (failed, pending) walks these instead of the whole feed.
create index activities_person_status
  on activities (tenant_id, user_id, status, created_at desc, id desc);

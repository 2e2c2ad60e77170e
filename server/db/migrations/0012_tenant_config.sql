-- Tenant configuration (issue 8): how a tenant's deployment looks and what it
-- offers, served by GET /api/v2/tenants/config and set with `npm run tenant`.
-- Columns on tenants rather than a table beside it: every tenant, however it
-- was created, has a whole configuration (the defaults below) and there is no
-- "tenant without config" case to handle. The defaults are the ones of
-- server/domain/tenants/rules.ts (DEFAULT_SETTINGS); the CLI validates every
-- value with the same function the seed goes through, the checks here only
-- keep the shapes the app relies on.
alter table tenants
  add column primary_color text not null default '#3b5bfd'
    check (primary_color ~ '^#[0-9a-f]{6}$'),
  add column accent_color text not null default '#16794a'
    check (accent_color ~ '^#[0-9a-f]{6}$'),
  add column logo_url text,
  -- {"crypto": true, "fiat": true, …}: one boolean per product of contract/tenants.ts.
  add column products jsonb not null
    default '{"crypto": true, "fiat": true, "cards": true, "exchange": true, "p2p": true}'
    check (jsonb_typeof(products) = 'object'),
  -- The wallet types offered, in the order the app lists them.
  add column wallet_types jsonb not null
    default '["personal", "business", "trading", "escrow", "merchant", "exchange", "staking", "vault"]'
    check (jsonb_typeof(wallet_types) = 'array'),
  add column default_display_currency text not null default 'USD'
    check (default_display_currency in ('USD', 'EUR', 'GBP')),
  -- ISO 3166-1 alpha-2 codes; null: every country of GET /location/countries.
  add column supported_countries jsonb
    check (supported_countries is null or jsonb_typeof(supported_countries) = 'array'),
  add column support_email text not null default 'support@finplatform.local',
  add column support_phone text,
  add column support_url text,
  add column logout_url text,
  -- Null until an operator (or the seed file, for the demo tenant) configured
  -- the tenant: the seed applies only then, so a restart never undoes the CLI.
  add column configured_at timestamptz,
  add column updated_at timestamptz not null default now();

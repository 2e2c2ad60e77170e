-- Issue 14: a fiat account shows what a person needs to pay into it. A
-- program whose currency the bank takes by SEPA (EUR) gives each account an
-- IBAN of its own at the bank (a virtual IBAN): a SEPA credit to it lands in
-- the account. Null for accounts of other currencies; an EUR account opened
-- before this migration is given its IBAN the first time it is read
-- (server/domain/fiat-accounts/bank-details.ts).
alter table fiat_accounts add column iban text
  check (iban is null or iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$');
create unique index fiat_accounts_iban on fiat_accounts (iban) where iban is not null;

-- SEPA credits the bank reported to an account's IBAN. The bank's end-to-end
-- id makes a report sent twice one credit.
create table fiat_account_credits (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  fiat_account_id uuid not null,
  end_to_end_id text not null unique,
  iban text not null,
  amount_minor numeric(78, 0) not null check (amount_minor > 0),
  currency_uuid uuid not null references currencies (uuid),
  sender_name text,
  sender_iban text,
  remittance text,
  received_at timestamptz not null,
  foreign key (tenant_id, fiat_account_id) references fiat_accounts (tenant_id, id)
);
create index fiat_account_credits_account on fiat_account_credits (fiat_account_id, received_at);

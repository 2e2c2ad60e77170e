-- Issue 29: the tenant's own accounts (external, treasury, fees) take a leg of nearly every money
-- movement, so their one balance row per currency was the row every order queued on, held
-- from the entry's write to the transaction's commit. An account that may go negative now keeps
-- its balance in up to 16 rows (shards), each entry adding to one of them at random; its balance
-- is their sum. A person's account keeps exactly one row (shard 0): its guard against going
-- below zero needs the whole balance in the row it updates.
alter table account_balances add column shard smallint not null default 0;
alter table account_balances drop constraint account_balances_pkey;
alter table account_balances add primary key (account_id, currency_uuid, shard);
alter table account_balances add constraint account_balances_shard
  check (shard = 0 or (may_go_negative and shard between 0 and 15));

-- The fees account is the tenant's own as well, and every order credits it: it is spread the
-- same way. Only a reversal of a fee ever debits it, so its sum never goes below zero; one of
-- its rows may, which is what may_go_negative allows.
alter table ledger_accounts drop constraint ledger_accounts_negative_kinds;
update ledger_accounts set may_go_negative = true where kind = 'fees';
update account_balances b set may_go_negative = true
  from ledger_accounts a where a.id = b.account_id and a.kind = 'fees';
alter table ledger_accounts add constraint ledger_accounts_negative_kinds
  check (may_go_negative = (kind in ('external', 'treasury', 'fees')));

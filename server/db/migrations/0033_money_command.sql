-- Issue 28: one money command (server/domain/ledger/money-command.ts) claims every
-- money write's idempotency key in idempotency_keys, so the table serves more
-- scopes than orders, card issuing and the card network's messages: a bank's
-- credit (keyed by its end-to-end id), a sandbox chain deposit, a transfer
-- between people… The scopes are named in server/infra/db/schema.ts; the
-- database only keeps them well-formed, so a new one needs no migration.
alter table idempotency_keys drop constraint idempotency_keys_scope_check;
alter table idempotency_keys add constraint idempotency_keys_scope_check
  check (scope ~ '^[a-z][a-z_]{1,39}$');

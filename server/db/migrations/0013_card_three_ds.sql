-- The sandbox card processor checks the 3-D Secure one-time code (session 4):
-- an AUTHORIZATION may carry the code the cardholder typed, which must be the
-- card's current code of GET /vcards/cards/{id}/sensitive/otp (card_otps,
-- used_at marks it spent). A wrong, spent or expired code declines the
-- authorisation THREE_DS_FAILED.

-- Wrong codes are counted on the card, not in memory, so restarts and
-- replicas do not reset the bound: `three_ds_failures` within the hour from
-- `three_ds_failed_since` (the activation code's rule, migration 0009).
alter table cards add column three_ds_failures integer not null default 0
  check (three_ds_failures >= 0);
alter table cards add column three_ds_failed_since timestamptz;

alter table card_transactions drop constraint card_transactions_decline_reason_check;
alter table card_transactions add constraint card_transactions_decline_reason_check
  check (decline_reason in ('CARD_FROZEN', 'CARD_BLOCKED', 'CARD_INACTIVE', 'CARD_CANCELED',
    'CARD_CLOSED', 'ACCOUNT_UNAVAILABLE', 'LIMIT_EXCEEDED', 'INSUFFICIENT_FUNDS',
    'THREE_DS_FAILED'));

-- Issue 29: a jsonb column is a document read whole (an order's fees and target, an event's
-- payload, a stored answer); nothing filters or joins on one, so the planner never reads its
-- statistics. Measuring them was most of an ANALYZE: a jsonb value sorts slowly, and an orders
-- table of 3,400 rows took 80 ms to analyse on PGlite, 27 ms without its three documents (on
-- PGlite an ANALYZE runs in the server's own thread, and every request waits for it). A
-- statistics target of 0 leaves a column out of ANALYZE; statistics.test.ts holds every jsonb
-- column to it.
alter table activities alter column timeline set statistics 0;
alter table api_keys alter column allowed_ips set statistics 0;
alter table card_programs alter column form_factors set statistics 0;
alter table cards alter column controls set statistics 0;
alter table cards alter column delivery_address set statistics 0;
alter table counterparties alter column address set statistics 0;
alter table events alter column payload set statistics 0;
alter table idempotency_keys alter column answer set statistics 0;
alter table jobs alter column payload set statistics 0;
alter table orders alter column fees set statistics 0;
alter table orders alter column payee set statistics 0;
alter table orders alter column target set statistics 0;
alter table passkeys alter column transports set statistics 0;
alter table proof_leaves alter column balances set statistics 0;
alter table proof_snapshots alter column reserves set statistics 0;
alter table schedules alter column template set statistics 0;
alter table tenants alter column products set statistics 0;
alter table tenants alter column supported_countries set statistics 0;
alter table tenants alter column wallet_types set statistics 0;
alter table tenants alter column webauthn_origins set statistics 0;
alter table user_profiles alter column address set statistics 0;
alter table webhook_endpoints alter column event_kinds set statistics 0;

-- Issue 29: a firm quote is a signed, expiring token (server/domain/orders/quote-token.ts),
-- not a row. GET /orders/calc writes nothing, placing opens the token instead of reading a
-- quote, and the job that pruned stale quotes goes with their table.
--
-- An order keeps the token it was placed with (quote_id, answered as the order's quote_id)
-- and its SHA-256 (quote_hash): unique per tenant, one quote, one order, with a key short
-- and fixed in size where the token is neither. An order placed before keeps its quote's
-- uuid in both: no token hashes to a uuid's text.
alter table orders drop constraint orders_tenant_id_quote_id_fkey;
alter table orders drop constraint orders_quote_id_key;
alter table orders alter column quote_id type text;
alter table orders add column quote_hash text;
update orders set quote_hash = quote_id;
alter table orders alter column quote_hash set not null;
alter table orders add constraint orders_quote_hash_key unique (tenant_id, quote_hash);

drop table order_quotes;
delete from jobs where kind = 'orders.prune_quotes';

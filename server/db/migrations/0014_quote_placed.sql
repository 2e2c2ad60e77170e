-- Which quotes an order placed (session 4). Expired quotes nobody placed are
-- pruned on write (orders/quote-repository.ts pruneQuotes); a placed quote
-- stays, its order references it. Without a mark the prune had to step past
-- every placed quote ever, at the old end of the expiry index, on every new
-- quote: the partial index holds only the quotes it may delete.
alter table order_quotes add column placed_at timestamptz;

update order_quotes q
  set placed_at = o.created_at
  from orders o
  where o.tenant_id = q.tenant_id and o.quote_id = q.id;

create index order_quotes_unplaced_expiry on order_quotes (expires_at) where placed_at is null;

-- Issue 27. The note a person types on a transfer ("Rent for May") is part
-- of what happened: it shows wherever the item does and `q` finds it. The
-- payer's item carries it, and so does the payee's `receive` item of a
-- transfer to another person's wallet (as a bank payout's reference reaches
-- the payee's statement); the order keeps it too (`orders.note`).
alter table activities add column note text check (length(note) <= 140);

create or replace function activities_search_text() returns trigger language plpgsql as $$
begin
  new.search := lower(concat_ws(' ',
    new.merchant_name, new.merchant_city, new.counterparty_name,
    (select code from currencies where uuid = new.currency_uuid),
    (select code from currencies where uuid = new.received_currency_uuid),
    new.card_last4, new.reference, new.address, new.tx_hash, new.note));
  return new;
end
$$;
drop trigger activities_search on activities;
create trigger activities_search
  before insert or update of merchant_name, merchant_city, counterparty_name, currency_uuid,
    received_currency_uuid, card_last4, reference, address, tx_hash, note
  on activities for each row execute function activities_search_text();

-- The notes of orders placed before this migration, on their items (the
-- trigger puts them into `search`). activities_backfill (0015) ran
-- before this and writes none: this is where an older order's note arrives.
update activities a set note = o.note
from orders o
where a.source_type = 'order' and a.source_id = o.id and o.note is not null;

-- A top-up onto a stand-alone card's own account is that card's: in the
-- card's feed, named by its last four (activity/record.ts orderPlacedItem
-- writes it so from now on). The ones written before, too.
update activities a set card_id = k.id, card_last4 = k.last4
from cards k
where a.type = 'card_top_up' and a.card_id is null and a.fiat_account_id = k.fiat_account_id
  and k.stand_alone;

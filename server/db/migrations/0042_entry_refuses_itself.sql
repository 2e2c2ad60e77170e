-- Issue 29: the ledger's entry statement (domain/ledger/repository.ts writeEntry) refuses an
-- entry it cannot write whole, by raising, so the statement writes nothing — its postings, its
-- balance changes and the command's rows that ride along with it. Until now it answered which
-- balance rows it had moved and the caller rolled the transaction back on a gap: a statement
-- that could be committed half-written. Now a command whose transaction would be that one
-- statement is sent alone, without BEGIN and COMMIT (ledger/money-command.ts).
--
-- The statement tests the entry itself (every account known, every delta's balance row
-- moved) and calls this only when the test failed, to raise the reason. `written`: the entry
-- row was inserted (false: its key was posted before). `alone`: the statement is its own
-- transaction, so a key posted before is refused too (the caller then replays it in a
-- transaction). `wanted`: the entry's accounts, in its postings' order; `known`: those the
-- tenant has. The deltas, in lock order, are `accounts`, `currencies` and `deltas`; `moved`
-- lists the balance rows changed, as 'account|currency'.
--
-- SQLSTATEs of the class LD (ours): LD001 a spend the balance does not cover (detail: JSON
-- of account, currency, balance and delta), LD002 an account the tenant does not have
-- (detail: the account), LD003 the key posted before, alone.
create function ledger_entry_refuse(
  written boolean,
  alone boolean,
  wanted uuid[],
  known uuid[],
  accounts uuid[],
  currencies uuid[],
  deltas numeric[],
  moved text[]
) returns boolean language plpgsql as $$
declare
  missing uuid;
begin
  if not written then
    if alone then
      raise exception 'ledger: the entry''s key was posted before' using errcode = 'LD003';
    end if;
    raise exception 'ledger: refused an entry that was not written alone';
  end if;
  select account into missing
  from unnest(wanted) with ordinality as w (account, n)
  where account <> all (coalesce(known, '{}'))
  order by n
  limit 1;
  if missing is not null then
    raise exception 'ledger: account % not found', missing
      using errcode = 'LD002', detail = missing::text;
  end if;
  for i in 1 .. coalesce(array_length(accounts, 1), 0) loop
    if accounts[i]::text || '|' || currencies[i]::text <> all (coalesce(moved, '{}')) then
      raise exception 'ledger: insufficient funds on account %', accounts[i]
        using errcode = 'LD001', detail = json_build_object(
          'account', accounts[i],
          'currency', currencies[i],
          'delta', deltas[i]::text,
          'balance', (
            select coalesce(sum(b.balance_minor), 0)::text from account_balances b
            where b.account_id = accounts[i] and b.currency_uuid = currencies[i]
          )
        )::text;
    end if;
  end loop;
  -- Called only when the statement found the entry not whole: what it found, this must too.
  raise exception 'ledger: the entry was refused for no reason found';
end
$$;

-- Issue 29: each process keeps live sessions, with what a request reads of
-- their user and tenant, in memory (server/domain/auth/session-cache.ts).
-- Whatever ends a session or changes what was kept tells every process, by
-- whatever path it happens: the app's own calls, a back office stamping
-- `blocked_at`, the tenant CLI. A trigger sends it, so no path can forget to.
--
-- Two ways out, each with its payload: `s:<session id>`, `u:<user id>`,
-- `t:<tenant id>`.
-- * NOTIFY on the channel `session_ends`: sent in the writing transaction,
--   delivered to every listening process only when it commits (never for a
--   rollback). Each process listens on a connection of its own, straight to
--   the primary (PgBouncer's transaction pooling keeps no LISTEN).
-- * NOTICE to the connection that wrote, before its statement returns: the
--   process that ended the session forgets it before it answers, without
--   waiting for its own notification. Forgetting early is harmless: a
--   rollback only costs the next request a read.
create function session_ends_send(payload text) returns void language plpgsql as $$
begin
  perform pg_notify('session_ends', payload);
  raise notice using message = 'session_ends', detail = payload;
end
$$;

create function session_ends_of_session() returns trigger language plpgsql as $$
begin
  perform session_ends_send('s:' || old.id);
  return null;
end
$$;
create trigger sessions_end
  after update of revoked_at, user_id, tenant_id or delete on sessions for each row
  execute function session_ends_of_session();

-- Only the columns a request reads with its session (auth/repository.ts SESSION_STATE).
create function session_ends_of_user() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' or (old.email, old.phone, old.telegram_id, old.kyc_status,
      old.created_at, old.blocked_at) is distinct from (new.email, new.phone,
      new.telegram_id, new.kyc_status, new.created_at, new.blocked_at) then
    perform session_ends_send('u:' || old.id);
  end if;
  return null;
end
$$;
create trigger users_session_fields
  after update or delete on users for each row execute function session_ends_of_user();

create function session_ends_of_tenant() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' or old.products is distinct from new.products then
    perform session_ends_send('t:' || old.id);
  end if;
  return null;
end
$$;
create trigger tenants_session_fields
  after update or delete on tenants for each row execute function session_ends_of_tenant();

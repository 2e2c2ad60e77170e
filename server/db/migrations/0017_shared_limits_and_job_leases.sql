-- Issue 17: what several server processes on one database must agree on.
--
-- Rate limits and attempt counters: one row per limited thing (an e-mail's
-- failed sign-ins, an address's attempts, a key's calls this minute…), a
-- fixed window counted with one atomic upsert (infra/rate-limit.ts), so N
-- processes enforce one limit. Rows of windows long over are pruned.
create table rate_limit_hits (
  key text primary key,
  window_start timestamptz not null,
  hits integer not null check (hits >= 0)
);
create index rate_limit_hits_window on rate_limit_hits (window_start);

-- The claim a job runner holds (infra/jobs.ts): it renews the short lease of
-- its jobs while it works (a heartbeat) and finishes only jobs still its own,
-- so a dead runner's jobs are taken over within one lease.
alter table jobs add column claimed_by uuid;

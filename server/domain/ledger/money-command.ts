import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Transaction,
} from 'kysely'
import type { EventKind } from '../../../contract/events.ts'
import type { DB } from '../../infra/db/schema.ts'
import { type Write, writeTogether } from '../../infra/db/together.ts'
import {
  answeredBefore,
  claimWrite,
  type IdempotentRequest,
  runIdempotent,
} from '../idempotency.ts'
import { type EventInput, eventWrites } from '../outbox.ts'
import { PostedBefore } from './repository.ts'
import {
  type EntryInput,
  type PostedEntry,
  post,
  postWithoutTransaction,
  reverse,
} from './service.ts'

/**
 * The one write path of money (after formance's single runner): every use
 * case that moves money runs as a money command, so idempotency, atomicity
 * and telling someone live here once instead of in each use case:
 *
 * 1. the client's idempotency key, when there is one, is looked up first (an
 *    answered key answers again, another body under it is refused) and then
 *    claimed inside the transaction (domain/idempotency.ts) — or, when the
 *    answer is known before the transaction (`answer`), claimed with the
 *    command's first writes and looked up only when the command fails
 *    (a key taken fails the claim; a quote expired since fails `prepare`);
 * 2. `prepare` reads and checks what needs no lock, before the transaction;
 * 3. one transaction runs `execute`: the command's own rows and checks, then
 *    the balance locks, taken by posting the ONE ledger entry last among its
 *    contended writes (ledger/service.ts: lock hold time is throughput), then
 *    what the person reads (feed items, wallet records) and the outbox events —
 *    the rows given to `write` and the events told before the entry written
 *    by the entry's own statement (one round trip), those told after it at
 *    the end, each group of events with one dispatch job;
 * 4. the runner refuses to commit a command that wrote no event — money that
 *    moved silently is a bug (an incoming credit nobody was told of) — and a
 *    command that posted twice (two entries break the global lock order);
 * 5. a command that declares `oneStatement` and, run, turns out to be only its
 *    rows, its events and its entry — nothing read or locked in the transaction,
 *    nothing written after the entry — is sent as that one statement alone,
 *    without BEGIN and COMMIT (an exchange: issue 29). The statement refuses
 *    itself when the entry cannot be written whole, so it commits all or
 *    nothing; the first use of `money.trx` instead runs the command again in
 *    a transaction, as any other.
 *
 * No use case calls the ledger's post() itself any more (docs/architecture.md
 * has the grep that would list one); the lint is to refuse the import outside
 * this module.
 */

/** A command broke the runner's rules: a bug, answered 500, and nothing was written. */
export class MoneyCommandError extends Error {
  constructor(command: string, rule: string) {
    super(`money command ${command}: ${rule}`)
    this.name = 'MoneyCommandError'
  }
}

/**
 * Thrown from `execute` when, read under the command's locks, there is
 * nothing to move: the bank's credit seen already, a card closed since its
 * fee fell due. The transaction rolls back (nothing was written) and the
 * runner answers `answer` — the one way a command commits no event, because
 * it commits nothing.
 */
export class NothingToMove<A> extends Error {
  constructor(readonly answer: A) {
    super('nothing to move')
    this.name = 'NothingToMove'
  }
}

/** What `execute` writes through, inside the command's one transaction (or its one statement: rule 5). */
export class MoneyTransaction {
  #entry: PostedEntry | undefined
  /** Sent alone: the entry's statement was the command's transaction, and it has committed. */
  #committed = false
  readonly #events: string[] = []
  /** Told and not yet written: written together before the entry, or at the end. */
  #pending: EventInput<EventKind>[] = []
  /** Rows given to `write` (and a claim), not yet written: with the next flush. */
  #writes: Write[] = []

  constructor(
    /**
     * For the command's own rows (an order, a card, a credit), before the entry is
     * posted. While the command may still be sent alone (rule 5) it only builds:
     * the first query run through it throws, and the runner runs the command
     * again in a transaction — so a command must let that error pass.
     */
    readonly trx: Transaction<DB>,
    readonly tenantId: string,
    readonly command: string,
    /** Written with the first flush: the claim of the client's key. */
    first: Write[] = [],
    /** The database, when the command may be sent as its entry's statement alone (`trx` then only builds). */
    private readonly alone?: Kysely<DB>,
  ) {
    this.#writes = first
  }

  /**
   * Posts the command's ledger entry: its balance rows are locked from here to
   * the commit, so do this after the command's own checks and inserts.
   * @throws LedgerError as post() does; MoneyCommandError on a second entry
   */
  async post(entry: Omit<EntryInput, 'tenantId'>): Promise<PostedEntry> {
    this.#once()
    // What is waiting to be written goes with the entry: one statement.
    const { ids, writes } = this.#take()
    const posting = { ...entry, tenantId: this.tenantId }
    if (this.alone) {
      // The statement commits as it runs: the rules are checked before it is sent.
      if (ids.length === 0) throw new MoneyCommandError(this.command, NO_EVENT)
      try {
        this.#entry = await postWithoutTransaction(this.alone, posting, writes)
      } catch (error) {
        // A replay (the entry's key posted before) is answered in a transaction.
        throw error instanceof PostedBefore ? new NeedsTransaction() : error
      }
      this.#committed = true
    } else {
      this.#entry = await post(this.trx, posting, writes)
    }
    this.#events.push(...ids)
    return this.#entry
  }

  /**
   * Posts the entry that undoes `entryId` (a hold released, a provisional credit
   * taken back) as the command's one entry.
   * @throws LedgerError as reverse() does; MoneyCommandError on a second entry
   */
  async reverse(request: { entryId: string; idempotencyKey: string }): Promise<PostedEntry> {
    this.#once()
    // As post(): what is waiting to be written goes with the entry.
    const { ids, writes } = this.#take()
    this.#entry = await reverse(this.trx, { ...request, tenantId: this.tenantId }, writes)
    this.#events.push(...ids)
    return this.#entry
  }

  /**
   * Tells an event, in this transaction: it exists if and only if this
   * commits. Written with the command's other events (`flush`), not at once.
   */
  async emit<K extends EventKind>(event: Omit<EventInput<K>, 'tenantId'>): Promise<void> {
    this.#open()
    this.#pending.push({ ...event, tenantId: this.tenantId } as EventInput<EventKind>)
  }

  /**
   * The command's own rows (inserts that need nothing back), written with
   * the events at the next flush, in the same statement: call `flush` to see
   * their constraints fail where the command can name the failure.
   */
  write(...writes: Write[]): void {
    this.#open()
    this.#writes.push(...writes)
  }

  /** Writes the rows and events given since the last flush, the events with their one dispatch job. */
  async flush(): Promise<void> {
    const { ids, writes } = this.#take()
    await writeTogether(this.trx, writes)
    this.#events.push(...ids)
  }

  /** The rows and events waiting, as writes (none left waiting); the events' ids. */
  #take(): { ids: string[]; writes: Write[] } {
    const told = eventWrites(this.trx, this.#pending)
    const writes = [...this.#writes, ...told.writes]
    this.#pending = []
    this.#writes = []
    return { ids: told.ids, writes }
  }

  /** The entry posted so far, if any (a declined card payment moves no money, and posts none). */
  get entry(): PostedEntry | undefined {
    return this.#entry
  }

  get events(): readonly string[] {
    return this.#events
  }

  /** Whether the command was sent as its entry's statement alone, and so has committed. */
  get committed(): boolean {
    return this.#committed
  }

  #once() {
    if (this.#entry) throw new MoneyCommandError(this.command, 'posted a second ledger entry')
  }

  #open() {
    if (this.#committed) throw new MoneyCommandError(this.command, AFTER_ALONE)
  }
}

const NO_EVENT = 'committed no event: nobody would be told'
const AFTER_ALONE = 'declared oneStatement but wrote after its entry, which had committed'

/** Thrown where a command sent alone needs its transaction after all: the runner runs it in one. */
class NeedsTransaction extends Error {
  constructor() {
    super('the command needs a transaction')
    this.name = 'NeedsTransaction'
  }
}

/**
 * A command's `trx` while it may still be sent alone: it builds queries as the
 * database does, and running one — a read, a lock, a flush — throws
 * NeedsTransaction, before anything was sent.
 */
const buildOnly = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () =>
      new (class extends DummyDriver {
        override async acquireConnection(): Promise<never> {
          throw new NeedsTransaction()
        }
      })(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
}) as unknown as Transaction<DB>

export interface MoneyCommand<A, P> {
  /** What the command is ("orders.place", "fiat.credit"): named when it breaks a rule. */
  name: string
  tenantId: string
  /** The client's idempotency key; none: the command is guarded by its entry's own key. */
  claim?: Omit<IdempotentRequest, 'tenantId'>
  /** Reads and checks before the transaction (not run for a replay). */
  prepare?: () => Promise<P>
  /**
   * With a claim, the answer when it is known before the transaction (an
   * order rendered from its plan): stored with the claim, which is then
   * written with the command's first rows — one statement and one lookup
   * fewer — so `prepare` must only read. What `execute` answers is not kept.
   */
  answer?: (prepared: P) => A
  /** The work, in the one transaction; answers what the client gets (and a replay, again). */
  execute: (money: MoneyTransaction, prepared: P) => Promise<A>
  /**
   * `execute` does nothing after its entry (no event, row or read, and no throw):
   * try it as that one statement, without a transaction (rule 5 above). A command
   * that writes after its entry is a bug, found once the entry has committed:
   * MoneyCommandError. `execute` may run twice — the first run stops at its first
   * query, the second is in a transaction — so before that query it only builds
   * (rows, events), and acts on nothing outside the database.
   */
  oneStatement?: boolean
}

/**
 * Runs one money command (see the top of this file).
 * @throws IdempotencyConflictError (same key, other body), whatever prepare
 *   and execute throw (the transaction then rolls back), MoneyCommandError
 */
export async function runMoneyCommand<A, P = undefined>(
  db: Kysely<DB>,
  command: MoneyCommand<A, P>,
): Promise<{ answer: A; replayed: boolean }> {
  const inTransaction =
    (prepared: P, first: (trx: Transaction<DB>) => Write[] = () => []) =>
    async (trx: Transaction<DB>) => {
      const money = new MoneyTransaction(trx, command.tenantId, command.name, first(trx))
      const answer = await command.execute(money, prepared)
      await money.flush()
      if (money.events.length === 0) throw new MoneyCommandError(command.name, NO_EVENT)
      return answer
    }
  /** The command in its transaction, or as its entry's statement alone where it can be (rule 5). */
  const run = async (prepared: P, first: (trx: Transaction<DB>) => Write[] = () => []) => {
    if (command.oneStatement) {
      const { tenantId, name } = command
      const money = new MoneyTransaction(buildOnly, tenantId, name, first(buildOnly), db)
      try {
        const answer = await command.execute(money, prepared)
        // Anything left to write would need a statement of its own: NeedsTransaction.
        await money.flush()
        if (!money.committed) throw new MoneyCommandError(name, NO_EVENT)
        return answer
      } catch (error) {
        if (!(error instanceof NeedsTransaction)) throw error
        if (money.committed) throw new MoneyCommandError(name, AFTER_ALONE)
      }
    }
    return db.transaction().execute(inTransaction(prepared, first))
  }
  const prepare = async () => (command.prepare ? command.prepare() : (undefined as P))

  const { claim, answer } = command
  if (claim?.key !== undefined && answer) {
    const keyed = { ...claim, key: claim.key, tenantId: command.tenantId }
    try {
      const prepared = await prepare()
      const given = answer(prepared)
      await run(prepared, (trx) => [claimWrite(trx, keyed, given)])
      return { answer: given, replayed: false }
    } catch (error) {
      // A bug, never a replay (a command sent alone may have committed its claim).
      if (error instanceof MoneyCommandError) throw error
      // Answered before under this key: whatever failed now (the claim itself, or a
      // check of what has changed since, as a quote expired), the first answer stands.
      const replay = await answeredBefore<A>(db, keyed)
      if (replay) return replay
      throw error
    }
  }
  if (claim) {
    return runIdempotent<A>(db, { ...claim, tenantId: command.tenantId }, async () => {
      const prepared = await prepare()
      const inside = inTransaction(prepared)
      if (!answer) return { run: inside }
      // No key: nothing to keep the answer with.
      return {
        run: async (trx) => {
          await inside(trx)
          return answer(prepared)
        },
      }
    })
  }
  const prepared = await prepare()
  try {
    const answer = await run(prepared)
    return { answer, replayed: false }
  } catch (error) {
    if (error instanceof NothingToMove) return { answer: error.answer as A, replayed: true }
    throw error
  }
}

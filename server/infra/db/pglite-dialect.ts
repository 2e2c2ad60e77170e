import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import { Mutex } from './mutex.ts'

/**
 * Kysely over embedded PGlite. PGlite is one session: a query sent while
 * another request holds a transaction open would run *inside* that
 * transaction. So the driver hands out its single connection under a mutex,
 * and a transaction keeps it from BEGIN to COMMIT — requests queue instead of
 * interleaving.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db)
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new Mutex()
  readonly #connection: PGliteConnection

  constructor(private readonly pglite: PGlite) {
    this.#connection = new PGliteConnection(pglite)
  }

  async init() {
    await this.pglite.waitReady
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock()
    return this.#connection
  }

  async releaseConnection() {
    this.#mutex.unlock()
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : ''
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`))
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy() {
    if (!this.pglite.closed) await this.pglite.close()
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol as node-postgres does, so a
    // migration file with many statements runs the same on both engines.
    const result =
      compiled.parameters.length === 0
        ? (await this.pglite.exec(compiled.sql)).at(-1)
        : await this.pglite.query<R>(compiled.sql, [...compiled.parameters])
    if (!result) return { rows: [] }
    const affected = result.affectedRows
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && { numAffectedRows: BigInt(affected) }),
    }
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; Kysely's stream() is not offered.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream: page with limit/offset or keyset instead')
  }
}

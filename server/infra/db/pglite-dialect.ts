import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite'
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

/** Statements prepared per connection at most; past it, a query is parsed and planned each time. */
const MAX_PREPARED = 1000

interface Prepared {
  name: string
  /** The parameters' type oids, as PostgreSQL described them. */
  types: number[]
}

class PGliteConnection implements DatabaseConnection {
  /**
   * Every parameterised statement is prepared once, under a name, and then
   * only bound and executed — one trip into PGlite instead of six, and no
   * parse or plan (PostgreSQL keeps the plan, re-planning after an ANALYZE
   * or a change of schema). PGlite's own query() prepares anew every time,
   * which cost each statement about three times what this does.
   */
  readonly #prepared = new Map<string, Prepared>()
  #names = 0

  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol as node-postgres does, so a
    // migration file with many statements runs the same on both engines.
    if (compiled.parameters.length === 0) {
      return toQueryResult<R>(
        (await this.pglite.exec(compiled.sql)).at(-1) as Results<R> | undefined,
      )
    }
    const prepared = await this.#prepare(compiled.sql)
    if (!prepared) {
      return toQueryResult(await this.pglite.query<R>(compiled.sql, [...compiled.parameters]))
    }
    const { serializers, parsers } = this.pglite as unknown as TypeCodecs
    const values = compiled.parameters.map((value, i) => {
      if (value === null || value === undefined) return null
      const serialize = serializers[prepared.types[i]!]
      return serialize ? serialize(value) : String(value)
    })
    try {
      const { messages } = await this.pglite.execProtocol(
        concat([
          serialize.bind({ statement: prepared.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      )
      return toQueryResult(parse.parseResults(messages, parsers)[0] as Results<R> | undefined)
    } catch (error) {
      // A change of schema under a prepared `select *` (migrations, while the
      // server runs): PostgreSQL refuses the old plan; the next call prepares anew.
      if ((error as { code?: string }).code === '0A000') this.#prepared.delete(compiled.sql)
      throw Object.assign(error as Error, { query: compiled.sql, params: compiled.parameters })
    }
  }

  /** The statement prepared under a name of its own; undefined once MAX_PREPARED are. */
  async #prepare(sql: string): Promise<Prepared | undefined> {
    const known = this.#prepared.get(sql)
    if (known || this.#prepared.size >= MAX_PREPARED) return known
    const name = `kysely_${++this.#names}`
    const { messages } = await this.pglite.execProtocol(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) }
    this.#prepared.set(sql, prepared)
    return prepared
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; Kysely's stream() is not offered.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream: page with limit/offset or keyset instead')
  }
}

const { serialize } = protocol

/** PGlite's value codecs by type oid (its serializers and the parsers it was created with). */
interface TypeCodecs {
  serializers: Record<number, (value: unknown) => string>
  parsers: Parameters<typeof parse.parseResults>[1]
}

function toQueryResult<R>(result: Results<R> | undefined): QueryResult<R> {
  if (!result) return { rows: [] }
  const affected = result.affectedRows
  return {
    rows: result.rows as R[],
    ...(affected !== undefined && { numAffectedRows: BigInt(affected) }),
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

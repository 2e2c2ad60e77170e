import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import type { DB } from '../infra/db/schema.ts'
import { createTestApp, describeServer } from '../test-support.ts'
import {
  canonicalHash,
  IdempotencyConflictError,
  type IdempotentRequest,
  runIdempotent,
} from './idempotency.ts'

describeServer('runIdempotent: the one runner of requests under an idempotency key', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
    await sql`create table runner_effects (id serial primary key, note text not null)`.execute(
      app.db,
    )
  })
  afterAll(() => app?.close())

  const request = (
    key: string | undefined,
    body: unknown = { amount: '1' },
  ): IdempotentRequest => ({
    scope: 'order',
    tenantId: DEMO_TENANT_ID,
    ownerId: randomUUIDFor(key),
    key,
    hash: canonicalHash(body),
  })
  /** One owner per key, so tests never share keys. */
  const owners = new Map<string | undefined, string>()
  const randomUUIDFor = (key: string | undefined) => {
    if (!owners.has(key)) owners.set(key, randomUUID())
    return owners.get(key)!
  }

  async function effects(note: string) {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from runner_effects where note = ${note}`.execute(app.db)
    return Number(rows[0]!.n)
  }

  /** A use case that writes one effect row and answers `{ note }`. */
  const useCase = (note: string, calls: { prepared: number; ran: number }) => async () => {
    calls.prepared++
    return {
      run: async (trx: Transaction<DB>) => {
        calls.ran++
        await sql`insert into runner_effects (note) values (${note})`.execute(trx)
        return { note }
      },
    }
  }

  it('runs once, keeps the answer, and answers a replay from the key before preparing anything', async () => {
    const calls = { prepared: 0, ran: 0 }
    const first = await runIdempotent(app.db, request('k1'), useCase('k1', calls))
    expect(first).toEqual({ answer: { note: 'k1' }, replayed: false })
    const again = await runIdempotent(app.db, request('k1'), useCase('k1', calls))
    expect(again).toEqual({ answer: { note: 'k1' }, replayed: true })
    expect(calls).toEqual({ prepared: 1, ran: 1 })
    expect(await effects('k1')).toBe(1)
  })

  it('the same key with another request is a conflict, and runs nothing', async () => {
    const calls = { prepared: 0, ran: 0 }
    await runIdempotent(app.db, request('k2', { amount: '1' }), useCase('k2', calls))
    await expect(
      runIdempotent(app.db, request('k2', { amount: '2' }), useCase('k2', calls)),
    ).rejects.toBeInstanceOf(IdempotencyConflictError)
    expect(calls.ran).toBe(1)
  })

  it('a use case that fails leaves no key: the next try runs it again', async () => {
    let fail = true
    const attempt = () =>
      runIdempotent(app.db, request('k3'), async () => ({
        run: async (trx: Transaction<DB>) => {
          await sql`insert into runner_effects (note) values ('k3')`.execute(trx)
          if (fail) throw new Error('the use case failed')
          return { ok: true }
        },
      }))
    await expect(attempt()).rejects.toThrow('the use case failed')
    expect(await effects('k3')).toBe(0)
    fail = false
    expect(await attempt()).toEqual({ answer: { ok: true }, replayed: false })
    expect(await effects('k3')).toBe(1)
  })

  it('without a key it runs every time', async () => {
    const calls = { prepared: 0, ran: 0 }
    await runIdempotent(app.db, request(undefined), useCase('none', calls))
    await runIdempotent(app.db, request(undefined), useCase('none', calls))
    expect(calls.ran).toBe(2)
    expect(await effects('none')).toBe(2)
  })

  it('requests racing under one key run the use case once and all answer alike', async () => {
    const calls = { prepared: 0, ran: 0 }
    const results = await Promise.all(
      Array.from({ length: 8 }, () => runIdempotent(app.db, request('k5'), useCase('k5', calls))),
    )
    expect(calls.ran).toBe(1)
    expect(await effects('k5')).toBe(1)
    expect(results.filter((result) => !result.replayed)).toHaveLength(1)
    for (const result of results) expect(result.answer).toEqual({ note: 'k5' })
  })
})

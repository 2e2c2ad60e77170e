import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { provision } from '../test-databases.ts'
import { createTestApp, createTestAppOn, describeServer } from '../test-support.ts'
import { readMigrations } from './db/migrate.ts'

const onPostgres = process.env.TEST_DB_ENGINE === 'postgres'

describeServer('readiness and the node’s name', () => {
  let app: FastifyInstance
  let newest: number
  beforeAll(async () => {
    app = await createTestApp({ NODE_NAME: 'node-7' })
    newest = Math.max(...(await readMigrations()).map((file) => file.version))
  })
  afterAll(() => app?.close())

  it('a node whose schema has every migration of its build is ready, and says so', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ status: 'ready', node: 'node-7', schema: newest })
  })

  it('a schema missing a migration of this build is not ready (503); liveness is unaffected', async () => {
    const { rows } = await sql<{ version: number; name: string; applied_at: Date }>`
      delete from schema_migrations where version = ${newest} returning *`.execute(app.db)
    const row = rows[0]!
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' })
      expect(response.statusCode).toBe(503)
      expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/)
      expect(response.json()).toMatchObject({
        status: 503,
        code: 'SCHEMA_BEHIND',
        detail: expect.stringContaining(String(newest)),
      })
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    } finally {
      await sql`insert into schema_migrations (version, name, applied_at)
        values (${row.version}, ${row.name}, ${row.applied_at})`.execute(app.db)
    }
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
  })

  it('every metric carries the node’s name', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' })
    const samples = response.body.split('\n').filter((line) => line && !line.startsWith('#'))
    expect(samples.length).toBeGreaterThan(10)
    expect(samples.filter((line) => !line.includes('node="node-7"'))).toEqual([])
  })

  if (onPostgres) {
    it('a node whose database does not answer is not ready (503)', async () => {
      const place = await provision({ migrated: true })
      const lost = await createTestAppOn(place)
      try {
        expect((await lost.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
        await place.dispose() // drops the database, cutting the pool's connections
        const response = await lost.inject({ method: 'GET', url: '/readyz' })
        expect(response.statusCode).toBe(503)
        expect(response.json()).toMatchObject({ code: 'DATABASE_UNREACHABLE' })
      } finally {
        await lost.close()
      }
    })
  }
})

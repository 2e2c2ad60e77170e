import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { provision } from '../../test-databases.ts'
import {
  createTestApp,
  createTestAppOn,
  describeServer,
  expectProblem,
  signUp,
} from '../../test-support.ts'
import { emitEvent } from '../outbox.ts'
import {
  addEndpoint,
  DISPATCH,
  drain,
  envelopeOf,
  eventKinds,
  raw,
  startReceiver,
  userIdOf,
} from './events-test-support.ts'

describeServer('events: the outbox commits with the change, or not at all', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  it('a rolled-back transaction leaves neither the event nor its dispatch job', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const [jobsBefore] = await Promise.all([
      app.db.selectFrom('jobs').select('id').where('kind', '=', 'events.dispatch').execute(),
    ])
    await expect(
      app.db.transaction().execute(async (trx) => {
        await emitEvent(trx, {
          tenantId: DEMO_TENANT_ID,
          userId,
          kind: 'security.api_key_created',
          payload: { api_key_id: userId, name: 'never', role: 'READ_ONLY' },
        })
        throw new Error('the change failed after the event was written')
      }),
    ).rejects.toThrow('the change failed')
    expect(await eventKinds(app, userId)).toEqual([])
    const jobsAfter = await app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'events.dispatch')
      .execute()
    expect(jobsAfter).toHaveLength(jobsBefore.length)
  })

  it('a refused action (an API key with a bad allow-list) writes no event', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/create',
      headers: raw(pair),
      payload: { name: 'bad', role: 'READ_ONLY', allowed_ips: ['not an address'] },
    })
    expectProblem(response, 422, 'VALIDATION_FAILED')
    expect(await eventKinds(app, userId)).toEqual([])
  })
})

describeServer('events: a crash after the commit still delivers', () => {
  it('the event committed before the process died is delivered by the next one', async () => {
    const receiver = await startReceiver()
    // PGlite on disk in the place's DATA_DIR (memory:// would die with the process).
    const place = await provision({ migrated: true, onDisk: true })
    const url = place.databaseUrl
    try {
      const first = await createTestAppOn({ ...place, databaseUrl: url }, DISPATCH)
      const pair = await signUp(first, { kyc: false, stepUp: true })
      await addEndpoint(first, pair, {
        url: `${receiver.url}/hook`,
        event_kinds: ['security.api_key_created'],
      })
      const created = await first.inject({
        method: 'POST',
        url: '/api/v1/developer/access/create',
        headers: raw(pair),
        payload: { name: 'before the crash', role: 'READ_ONLY' },
      })
      expect(created.statusCode).toBe(201)
      // The process stops with the event committed and its dispatch never run.
      await first.close()
      expect(receiver.received).toHaveLength(0)

      const second = await createTestAppOn({ ...place, databaseUrl: url }, DISPATCH)
      try {
        await drain(second)
        expect(receiver.received.map((request) => envelopeOf(request).type)).toEqual([
          'security.api_key_created',
        ])
      } finally {
        await second.close()
      }
    } finally {
      await place.dispose()
      await receiver.close()
    }
  })
})

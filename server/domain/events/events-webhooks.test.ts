import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { enqueue } from '../../infra/jobs.ts'
import {
  createTenant,
  createTestApp,
  decideKyc,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { emitEvent } from '../outbox.ts'
import {
  addEndpoint,
  DISPATCH,
  drain,
  endpointSecret,
  envelopeOf,
  raw,
  startReceiver,
  userIdOf,
} from './events-test-support.ts'
import { endpointsFor } from './repository.ts'
import { deliveryBackoffMs } from './rules.ts'

describeServer('events: webhooks', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  /** Creates an API key for `pair`: the event the webhook tests send. */
  async function createKey(pair: TokenPair, name = 'k', on = headers()) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/developer/access/create',
      headers: raw(pair, on),
      payload: { name, role: 'READ_ONLY' },
    })
    expect(response.statusCode, response.body).toBe(201)
  }

  it('a receiver that fails twice gets the event on the third try, exactly once per endpoint', async () => {
    const flaky = await startReceiver({ statuses: [500, 503] })
    const steady = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      // Endpoints that hear API keys only: adding them is an event of its own.
      const mine = await addEndpoint(app, pair, {
        url: `${flaky.url}/flaky`,
        event_kinds: ['security.api_key_created'],
      })
      await addEndpoint(app, pair, {
        url: `${steady.url}/steady`,
        event_kinds: ['security.api_key_created'],
      })
      await createKey(pair, 'retried')

      let now = Date.now()
      await drain(app, new Date(now))
      expect(flaky.received).toHaveLength(1)
      expect(steady.received).toHaveLength(1)
      // The second try waits for its backoff: nothing before it.
      await drain(app, new Date(now + deliveryBackoffMs(1) - 1_000))
      expect(flaky.received).toHaveLength(1)
      now += deliveryBackoffMs(1)
      await drain(app, new Date(now))
      expect(flaky.received).toHaveLength(2)
      now += deliveryBackoffMs(2)
      await drain(app, new Date(now))
      expect(flaky.received).toHaveLength(3)
      // Long after: nothing more to either.
      await drain(app, new Date(now + 24 * 3600_000))
      expect(flaky.received).toHaveLength(3)
      expect(steady.received).toHaveLength(1)
      // Every try carried the same message id: the event's.
      const ids = new Set(flaky.received.map((request) => request.headers['webhook-id']))
      expect(ids.size).toBe(1)

      const log = await app.inject({
        method: 'GET',
        url: `/api/v1/developer/webhooks/${mine.id}/deliveries`,
        headers: raw(pair),
      })
      expect(log.statusCode, log.body).toBe(200)
      expect(log.json<{ data: unknown[] }>().data).toEqual([
        expect.objectContaining({
          kind: 'security.api_key_created',
          status: 'delivered',
          attempts: 3,
          response_status: 200,
        }),
      ])
    } finally {
      await flaky.close()
      await steady.close()
    }
  })

  it('signatures verify with standardwebhooks, and across a secret rotation with overlap', async () => {
    const receiver = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const endpoint = await addEndpoint(app, pair, {
        url: `${receiver.url}/signed`,
        event_kinds: ['security.api_key_created'],
      })
      const first = await endpointSecret(app, pair, endpoint.id)
      expect(first).toMatch(/^whsec_/)
      await createKey(pair, 'signed')
      await drain(app)
      const [delivered] = receiver.received
      const verified = new Webhook(first).verify(
        delivered!.body,
        delivered!.headers as Record<string, string>,
      )
      expect(verified).toMatchObject({
        type: 'security.api_key_created',
        version: 1,
        data: { name: 'signed' },
      })
      // A body changed on the way fails.
      expect(() =>
        new Webhook(first).verify(
          delivered!.body.replace('signed', 'forged'),
          delivered!.headers as Record<string, string>,
        ),
      ).toThrow()

      const rotated = await app.inject({
        method: 'POST',
        url: `/api/v1/developer/webhooks/${endpoint.id}/rotate-secret`,
        headers: raw(pair),
        payload: { overlap_seconds: 3600 },
      })
      expect(rotated.statusCode, rotated.body).toBe(200)
      const second = rotated.json<{ secret: string; previous_secret_expires_at: string }>()
      expect(second.secret).not.toBe(first)
      expect(second.previous_secret_expires_at).not.toBeNull()
      await createKey(pair, 'overlap')
      await drain(app)
      const during = receiver.received[1]!
      for (const secret of [first, second.secret]) {
        expect(() =>
          new Webhook(secret).verify(during.body, during.headers as Record<string, string>),
        ).not.toThrow()
      }

      const ended = await app.inject({
        method: 'POST',
        url: `/api/v1/developer/webhooks/${endpoint.id}/rotate-secret`,
        headers: raw(pair),
        payload: { overlap_seconds: 0 },
      })
      const third = ended.json<{ secret: string }>().secret
      await createKey(pair, 'after')
      await drain(app)
      const after = receiver.received[2]!
      expect(() =>
        new Webhook(third).verify(after.body, after.headers as Record<string, string>),
      ).not.toThrow()
      expect(() =>
        new Webhook(second.secret).verify(after.body, after.headers as Record<string, string>),
      ).toThrow()
    } finally {
      await receiver.close()
    }
  })

  it('an endpoint registered after an event never receives it, on dispatch or a retried dispatch', async () => {
    const receiver = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      await addEndpoint(app, pair, { url: `${receiver.url}/before` })
      await createKey(pair, 'earlier')
      // Registered while the event waits for its dispatch.
      await addEndpoint(app, pair, { url: `${receiver.url}/after` })
      const pathsOf = (name: string) =>
        receiver.received
          .filter((request) => envelopeOf(request).data.name === name)
          .map((request) => request.path)
          .sort()
      await drain(app)
      expect(pathsOf('earlier')).toEqual(['/before'])

      const event = await app.db
        .selectFrom('events')
        .select('id')
        .where('user_id', '=', await userIdOf(app, pair))
        .where('kind', '=', 'security.api_key_created')
        .executeTakeFirstOrThrow()
      await enqueue(app.db, {
        kind: 'events.dispatch',
        tenantId: DEMO_TENANT_ID,
        payload: { event_id: event.id },
      })
      await drain(app)
      expect(pathsOf('earlier')).toEqual(['/before'])

      // What happens once it exists, it hears.
      await createKey(pair, 'later')
      await drain(app)
      expect(pathsOf('later')).toEqual(['/after', '/before'])
    } finally {
      await receiver.close()
    }
  })

  it('an endpoint made earlier in the event’s own millisecond hears it (times compared to the microsecond)', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const endpoint = await addEndpoint(app, pair, { url: 'http://127.0.0.1:9/hook' })
    // 10:00:00.123400 and then 10:00:00.123700: a JavaScript Date holds neither's microseconds.
    await sql`update webhook_endpoints set created_at = '2026-03-01T10:00:00.1234Z'
      where id = ${endpoint.id}`.execute(app.db)
    const eventId = await app.db.transaction().execute((trx) =>
      emitEvent(trx, {
        tenantId: DEMO_TENANT_ID,
        userId,
        kind: 'security.api_key_created',
        payload: { api_key_id: userId, name: 'same millisecond', role: 'READ_ONLY' },
      }),
    )
    await sql`update events set created_at = '2026-03-01T10:00:00.1237Z'
      where id = ${eventId}`.execute(app.db)

    const endpoints = await endpointsFor(app.db, [eventId])
    expect(endpoints.map((row) => row.id)).toContain(endpoint.id)
  })

  it('another person’s endpoint and another tenant’s never receive the event; the tenant’s own does', async () => {
    const receiver = await startReceiver()
    try {
      const other = await createTenant(app)
      const otherHeaders = headers({ 'x-tenant-id': other })
      const alice = await signUp(app, { kyc: false, stepUp: true })
      const bob = await signUp(app, { kyc: false, stepUp: true })
      const carol = await signUp(app, { kyc: false, stepUp: true, headers: otherHeaders })
      await addEndpoint(app, alice, { url: `${receiver.url}/alice` })
      await addEndpoint(app, bob, { url: `${receiver.url}/bob` })
      await addEndpoint(app, carol, { url: `${receiver.url}/carol` }, otherHeaders)
      const demoTenant = await app.events.endpoints.create(
        { tenantId: DEMO_TENANT_ID, userId: null },
        { url: `${receiver.url}/demo-tenant`, event_kinds: ['security.api_key_created'] },
      )
      const otherTenant = await app.events.endpoints.create(
        { tenantId: other, userId: null },
        { url: `${receiver.url}/other-tenant` },
      )
      await createKey(alice, 'alice')
      await drain(app)
      const paths = receiver.received
        .filter((request) => envelopeOf(request).data.name === 'alice')
        .map((request) => request.path)
        .sort()
      expect(paths).toEqual(['/alice', '/demo-tenant'])

      // Carol's event reaches her endpoint and her tenant's, never the demo tenant's.
      receiver.received.length = 0
      await createKey(carol, 'carol', otherHeaders)
      await drain(app)
      expect(receiver.received.map((request) => request.path).sort()).toEqual([
        '/carol',
        '/other-tenant',
      ])
      await app.events.endpoints.remove({ tenantId: DEMO_TENANT_ID, userId: null }, demoTenant.id)
      await app.events.endpoints.remove({ tenantId: other, userId: null }, otherTenant.id)

      // Bob cannot read, change or see Alice's endpoints.
      const list = await app.inject({
        method: 'GET',
        url: '/api/v1/developer/webhooks',
        headers: raw(bob),
      })
      expect(list.json<{ data: { url: string }[] }>().data.map((endpoint) => endpoint.url)).toEqual(
        [`${receiver.url}/bob`],
      )
    } finally {
      await receiver.close()
    }
  })

  it('an endpoint hears only the kinds it asked for, and nothing while disabled', async () => {
    const receiver = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      await addEndpoint(app, pair, {
        url: `${receiver.url}/kyc-only`,
        event_kinds: ['kyc.status_changed'],
      })
      const off = await addEndpoint(app, pair, { url: `${receiver.url}/off`, enabled: false })
      await createKey(pair, 'not for kyc-only')
      await decideKyc(app, pair.access_token, 'APPROVED')
      await drain(app)
      expect(receiver.received.map((request) => [request.path, envelopeOf(request).type])).toEqual([
        ['/kyc-only', 'kyc.status_changed'],
      ])
      expect(off.enabled).toBe(false)
    } finally {
      await receiver.close()
    }
  })

  it('"send again" delivers a delivered event once more, with the same id', async () => {
    const receiver = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const endpoint = await addEndpoint(app, pair, {
        url: `${receiver.url}/again`,
        event_kinds: ['security.api_key_created'],
      })
      await createKey(pair, 'again')
      await drain(app)
      const log = await app.inject({
        method: 'GET',
        url: `/api/v1/developer/webhooks/${endpoint.id}/deliveries`,
        headers: raw(pair),
      })
      const [delivery] = log.json<{ data: { id: string }[] }>().data
      const retried = await app.inject({
        method: 'POST',
        url: `/api/v1/developer/webhooks/${endpoint.id}/deliveries/${delivery!.id}/retry`,
        headers: raw(pair),
      })
      expect(retried.statusCode, retried.body).toBe(200)
      expect(retried.json()).toMatchObject({ status: 'pending' })
      await drain(app)
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[1]!.headers['webhook-id']).toBe(
        receiver.received[0]!.headers['webhook-id'],
      )
      // Someone else's delivery id is not found.
      const stranger = await signUp(app, { kyc: false, stepUp: true })
      const theirs = await addEndpoint(app, stranger, { url: `${receiver.url}/theirs` })
      expectProblem(
        await app.inject({
          method: 'POST',
          url: `/api/v1/developer/webhooks/${theirs.id}/deliveries/${delivery!.id}/retry`,
          headers: raw(stranger),
        }),
        404,
        'WEBHOOK_DELIVERY_NOT_FOUND',
      )
    } finally {
      await receiver.close()
    }
  })
})

import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { EventEnvelope, NotificationList, UnreadCount } from '../../../contract/events.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { WalletTransaction } from '../../../contract/wallets.ts'
import { enqueue } from '../../infra/jobs.ts'
import { provision } from '../../test-databases.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  createTestAppOn,
  createWallet,
  DEFAULT_PASSWORD,
  decideKyc,
  describeServer,
  expectProblem,
  headers,
  signIn,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { latestCode } from '../otp/otp-test-support.ts'
import { emitEvent } from '../outbox.ts'
import {
  addEndpoint,
  DISPATCH,
  drain,
  endpointSecret,
  eventKinds,
  type Received,
  startReceiver,
  userIdOf,
} from './events-test-support.ts'
import { endpointsFor } from './repository.ts'
import { deliveryBackoffMs } from './rules.ts'

const raw = (pair: TokenPair, on = headers()) => ({ ...on, authorization: pair.access_token })

/** Every `events` row written while `action` runs, for one person: the kinds, in order. */
async function producedBy(app: FastifyInstance, userId: string, action: () => Promise<unknown>) {
  const before = (await eventKinds(app, userId)).length
  await action()
  return (await eventKinds(app, userId)).slice(before)
}

const envelopeOf = (request: Received) => JSON.parse(request.body) as EventEnvelope

describeServer('events: each kind comes from its action and from nothing else', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  it('kyc.status_changed: a decision, with the status before and after; signing up makes no event', async () => {
    const email = uniqueEmail('kyc')
    const pair = await signUp(app, { email, kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    expect(await eventKinds(app, userId)).toEqual([])
    const kinds = await producedBy(app, userId, () => decideKyc(app, pair.access_token, 'APPROVED'))
    expect(kinds).toEqual(['kyc.status_changed'])
    const event = await app.db
      .selectFrom('events')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(event).toMatchObject({
      version: 1,
      payload: { status: 'APPROVED', previous_status: 'UNVERIFIED', reason: null },
    })
    // The same status again changes nothing, and tells nothing.
    expect(
      await producedBy(app, userId, () => decideKyc(app, pair.access_token, 'APPROVED')),
    ).toEqual([])
  })

  it('security.sign_in_new_device: a sign-in from another user agent, not from a known one', async () => {
    const email = uniqueEmail('device')
    const laptop = headers({ 'user-agent': 'Laptop/1.0' })
    const phone = headers({ 'user-agent': 'Phone/2.0' })
    const pair = await signUp(app, { email, kyc: false, stepUp: true, headers: laptop })
    const userId = await userIdOf(app, pair)
    expect(
      await producedBy(app, userId, async () => {
        const again = await signIn(app, { email, password: DEFAULT_PASSWORD, headers: laptop })
        expect(again.statusCode, again.body).toBe(200)
      }),
    ).toEqual([])
    expect(
      await producedBy(app, userId, async () => {
        const fresh = await signIn(app, { email, password: DEFAULT_PASSWORD, headers: phone })
        expect(fresh.statusCode, fresh.body).toBe(200)
      }),
    ).toEqual(['security.sign_in_new_device'])
    // A wrong password opens no session and tells nothing.
    expect(
      await producedBy(app, userId, () =>
        signIn(app, {
          email,
          password: 'not the password at all',
          headers: headers({ 'user-agent': 'X/1' }),
        }),
      ),
    ).toEqual([])
  })

  it('security.api_key_created: creating a key; rotating it is a change, listing nothing', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    let keyId = ''
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/create',
          headers: raw(pair),
          payload: { name: 'CI', role: 'READ_ONLY' },
        })
        expect(response.statusCode, response.body).toBe(201)
        keyId = response.json<{ id: string }>().id
      }),
    ).toEqual(['security.api_key_created'])
    expect(
      await producedBy(app, userId, async () => {
        await app.inject({
          method: 'POST',
          url: '/api/v1/developer/access/rotate',
          headers: raw(pair),
          payload: { id: keyId },
        })
        await app.inject({
          method: 'GET',
          url: '/api/v1/developer/access/list',
          headers: raw(pair),
        })
      }),
    ).toEqual(['security.api_key_changed'])
  })

  it('security.contact_changed: confirming a new e-mail, not asking for the code', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const email = uniqueEmail('moved')
    const request = () =>
      app.inject({
        method: 'PATCH',
        url: '/api/v2/user/email',
        headers: headers(bearer(pair.access_token)),
        payload: { email },
      })
    expect(await producedBy(app, userId, request)).toEqual([])
    const code = await latestCode(app, email)
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v2/user/email',
          headers: headers(bearer(pair.access_token)),
          payload: { email, token: code },
        })
        expect(response.statusCode, response.body).toBe(200)
      }),
    ).toEqual(['security.contact_changed'])
    const event = await app.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('kind', '=', 'security.contact_changed')
      .executeTakeFirstOrThrow()
    expect(event.payload).toEqual({ contact: 'email', masked: `m***@example.com` })
  })

  it('deposit.detected when the chain sees a deposit (its money arrives, pending), deposit.confirmed once when it completes; recording it tells nothing', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    const wallet = await createWallet(app, pair.access_token)
    const address = await app.inject({
      method: 'POST',
      url: `/api/v2/wallets/${wallet.uuid}/addresses/bitcoin`,
      headers: headers(bearer(pair.access_token)),
      payload: {},
    })
    expect(address.statusCode, address.body).toBe(201)
    let deposit: WalletTransaction | undefined
    expect(
      await producedBy(app, userId, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/sandbox/deposits',
          payload: { wallet_uuid: wallet.uuid, chain: 'bitcoin', currency: 'BTC', amount: '0.5' },
        })
        expect(response.statusCode, response.body).toBe(202)
        deposit = response.json<WalletTransaction>()
      }),
    ).toEqual([])
    // Seen, then a confirmation per block until complete: an event as each moves money, none on the way.
    let now = Date.now()
    const kinds = await producedBy(app, userId, async () => {
      for (let block = 0; block < 10; block++) {
        now += 60_000
        await drain(app, new Date(now))
      }
    })
    expect(kinds).toEqual(['deposit.detected', 'deposit.confirmed'])
    const confirmed = await app.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', userId)
      .where('kind', '=', 'deposit.confirmed')
      .executeTakeFirstOrThrow()
    expect(confirmed.payload).toMatchObject({
      wallet_id: wallet.uuid,
      transaction_id: deposit!.uuid,
      amount: '0.50000000',
      currency: 'BTC',
      chain: 'bitcoin',
    })
  })
})

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
    const place = await provision()
    // PGlite on disk in the place's DATA_DIR (memory:// would die with the process).
    const url = place.databaseUrl === 'memory://' ? '' : place.databaseUrl
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

    const endpoints = await endpointsFor(app.db, {
      id: eventId,
      tenant_id: DEMO_TENANT_ID,
      user_id: userId,
    })
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

describeServer('events: SSRF outside the sandbox', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ ...DISPATCH, SANDBOX: 'false' })
  })
  afterAll(() => app?.close())

  it.each([
    'http://127.0.0.1/hook',
    'http://example.com/hook',
    'https://127.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.7/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost:8443/hook',
  ])('registering %s is refused', async (url) => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/v1/developer/webhooks',
        headers: raw(pair),
        payload: { url },
      }),
      422,
      'WEBHOOK_URL_REFUSED',
    )
  })

  it('changing an endpoint’s URL to a private address is refused too', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const endpoint = await app.events.endpoints.create(
      { tenantId: DEMO_TENANT_ID, userId: await userIdOf(app, pair) },
      { url: 'https://93.184.215.14/hook' },
    )
    expectProblem(
      await app.inject({
        method: 'PATCH',
        url: `/api/v1/developer/webhooks/${endpoint.id}`,
        headers: raw(pair),
        payload: { url: 'https://192.168.1.1/hook' },
      }),
      422,
      'WEBHOOK_URL_REFUSED',
    )
  })

  it('an endpoint whose address turned private is refused at delivery, and nothing connects', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const userId = await userIdOf(app, pair)
    // Straight into the table: the registration check would refuse it (as tested above).
    const receiver = await startReceiver()
    try {
      await app.db
        .insertInto('webhook_endpoints')
        .values({
          id: '0190f5e4-0000-7000-8000-000000000001',
          tenant_id: DEMO_TENANT_ID,
          user_id: userId,
          url: receiver.url.replace('http:', 'https:'),
          secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        })
        .execute()
      await app.db.transaction().execute((trx) =>
        emitEvent(trx, {
          tenantId: DEMO_TENANT_ID,
          userId,
          kind: 'security.api_key_created',
          payload: { api_key_id: userId, name: 'x', role: 'READ_ONLY' },
        }),
      )
      await drain(app)
      expect(receiver.received).toHaveLength(0)
      const delivery = await app.db
        .selectFrom('event_deliveries')
        .select(['status', 'last_error', 'attempts'])
        .where('endpoint_id', '=', '0190f5e4-0000-7000-8000-000000000001')
        .executeTakeFirstOrThrow()
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 })
      expect(delivery.last_error).toMatch(/may not reach/)
    } finally {
      await receiver.close()
    }
  })
})

describeServer('events: the notification centre', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
  })
  afterAll(() => app?.close())

  const list = (pair: TokenPair) =>
    app.inject({
      method: 'GET',
      url: '/api/v2/notifications',
      headers: headers(bearer(pair.access_token)),
    })

  it('lists the person’s events newest first with the screen each is about, and marks them read', async () => {
    const pair = await signUp(app, { kyc: false, stepUp: true })
    const other = await signUp(app, { kyc: false, stepUp: true })
    await decideKyc(app, pair.access_token, 'APPROVED')
    await decideKyc(app, other.access_token, 'APPROVED')
    const nothingYet = (await list(pair)).json<NotificationList>()
    // Written by the dispatcher, not the action: none before the job runs.
    expect(nothingYet).toMatchObject({ data: [], unread: 0, total: 0 })
    await drain(app)
    const page = (await list(pair)).json<NotificationList>()
    expect(page).toMatchObject({ total: 1, unread: 1, is_last_page: true })
    expect(page.data[0]).toMatchObject({
      kind: 'kyc.status_changed',
      path: '/verify',
      read_at: null,
      data: { status: 'APPROVED' },
    })

    // Someone else's id marks nothing.
    const foreign = (await list(other)).json<NotificationList>().data[0]!.id
    const mark = (ids?: string[]) =>
      app.inject({
        method: 'POST',
        url: '/api/v2/notifications/read',
        headers: headers(bearer(pair.access_token)),
        payload: ids ? { ids } : {},
      })
    expect((await mark([foreign])).json<UnreadCount>()).toEqual({ unread: 1 })
    expect((await mark([page.data[0]!.id])).json<UnreadCount>()).toEqual({ unread: 0 })
    expect((await list(other)).json<NotificationList>().unread).toBe(1)
    const unread = await app.inject({
      method: 'GET',
      url: '/api/v2/notifications/unread',
      headers: headers(bearer(other.access_token)),
    })
    expect(unread.json<UnreadCount>()).toEqual({ unread: 1 })
  })

  it('a dispatch run twice writes one notification and one delivery per destination', async () => {
    const receiver = await startReceiver()
    try {
      const pair = await signUp(app, { kyc: false, stepUp: true })
      const userId = await userIdOf(app, pair)
      await addEndpoint(app, pair, {
        url: `${receiver.url}/once`,
        event_kinds: ['security.api_key_created'],
      })
      const eventId = await app.db.transaction().execute((trx) =>
        emitEvent(trx, {
          tenantId: DEMO_TENANT_ID,
          userId,
          kind: 'security.api_key_created',
          payload: { api_key_id: userId, name: 'twice', role: 'READ_ONLY' },
        }),
      )
      // A second dispatch of the same event, as after a lost lease.
      await enqueue(app.db, {
        kind: 'events.dispatch',
        tenantId: DEMO_TENANT_ID,
        payload: { event_id: eventId },
      })
      await drain(app)
      expect(receiver.received).toHaveLength(1)
      const notified = (await list(pair)).json<NotificationList>().data
      expect(notified.filter((notification) => notification.id === eventId)).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })
})

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createTestApp, describeServer, expectProblem, signUp } from '../../test-support.ts'
import { emitEvent } from '../outbox.ts'
import { DISPATCH, drain, raw, startReceiver, userIdOf } from './events-test-support.ts'

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

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { NotificationList, UnreadCount } from '../../../contract/events.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { enqueue } from '../../infra/jobs.ts'
import {
  bearer,
  createTestApp,
  decideKyc,
  describeServer,
  headers,
  signUp,
} from '../../test-support.ts'
import { emitEvent } from '../outbox.ts'
import { addEndpoint, DISPATCH, drain, startReceiver, userIdOf } from './events-test-support.ts'

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

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { statementsOf } from '../../infra/db/statements.ts'
import { enqueue, JobRunner } from '../../infra/jobs.ts'
import { createTestApp, describeServer, signUp } from '../../test-support.ts'
import { DISPATCH_JOB, emitEvent } from '../outbox.ts'
import { addEndpoint, DISPATCH, drain, joinTelegram, userIdOf } from './events-test-support.ts'

/**
 * The events' dispatch runs as batches (issue 29): a burst of events costs the
 * same few statements as one event, and what each person is told is what a
 * dispatch of that event alone would tell them.
 */
describeServer('events: the dispatch of a burst', () => {
  let app: FastifyInstance
  /** A runner of the dispatch alone: its statements are the dispatch's. */
  let runner: JobRunner
  let alice: string
  let bob: string
  let carol: string

  beforeAll(async () => {
    app = await createTestApp(DISPATCH)
    runner = new JobRunner(app.db, app.log, { leaseMs: 60_000 })
    runner.registerBatch(DISPATCH_JOB, app.events.dispatcher.dispatch)
    const [a, b, c] = await Promise.all(
      [0, 1, 2].map(() => signUp(app, { kyc: false, stepUp: true })),
    )
    alice = await userIdOf(app, a!)
    bob = await userIdOf(app, b!)
    carol = await userIdOf(app, c!)
    // Alice: Telegram and a webhook of her own. Bob: Telegram, KYC news muted. Carol: e-mail only.
    await joinTelegram(app, alice)
    await joinTelegram(app, bob)
    await addEndpoint(app, a!, { url: 'http://127.0.0.1:9/alice' })
    await app.db
      .insertInto('notification_mutes')
      .values({ tenant_id: DEMO_TENANT_ID, user_id: bob, kind: 'kyc.status_changed' })
      .execute()
    await drain(app)
  })
  afterAll(() => app?.close())

  /** `each` of each kind for each of `people`: the events' ids. */
  async function burst(people: string[], each: number) {
    const ids: string[] = []
    for (const userId of people) {
      for (let n = 0; n < each; n++) {
        ids.push(
          await emitEvent(app.db, {
            tenantId: DEMO_TENANT_ID,
            userId,
            kind: 'security.api_key_created',
            payload: { api_key_id: userId, name: `key ${n}`, role: 'READ_ONLY' },
          }),
          await emitEvent(app.db, {
            tenantId: DEMO_TENANT_ID,
            userId,
            kind: 'kyc.status_changed',
            payload: { status: 'APPROVED', previous_status: 'PENDING', reason: null },
          }),
        )
      }
    }
    return ids
  }

  /** What the events were told: notifications, and deliveries by person and channel. */
  async function told(eventIds: string[]) {
    const [notifications, deliveries] = await Promise.all([
      app.db
        .selectFrom('notifications')
        .select('event_id')
        .where('event_id', 'in', eventIds)
        .execute(),
      app.db
        .selectFrom('event_deliveries as d')
        .innerJoin('events as e', 'e.id', 'd.event_id')
        .select(['e.user_id', 'e.kind', 'd.channel'])
        .where('d.event_id', 'in', eventIds)
        .execute(),
    ])
    const by = new Map<string, number>()
    for (const row of deliveries) {
      const who = row.user_id === alice ? 'alice' : row.user_id === bob ? 'bob' : 'carol'
      const key = `${who} ${row.kind} ${row.channel}`
      by.set(key, (by.get(key) ?? 0) + 1)
    }
    return { notifications: notifications.length, deliveries: Object.fromEntries([...by].sort()) }
  }

  it('thirty events cost the statements of three, and each person is told as one event at a time would tell them', async () => {
    const few = await burst([alice, bob, carol], 1)
    const small = await statementsOf(() => runner.runDue())
    expect(small.result).toEqual({ done: 6, rescheduled: 0, failed: 0 })

    const many = await burst([alice, bob, carol], 5)
    const large = await statementsOf(() => runner.runDue())
    expect(large.result).toEqual({ done: 30, rescheduled: 0, failed: 0 })
    // The claim, the transaction (the events, notifications, endpoints, people, deliveries and
    // their jobs) and the finish: none of them once per event.
    expect(large.statements.length, large.statements.join('\n')).toBe(small.statements.length)
    expect(large.statements.length, large.statements.join('\n')).toBeLessThanOrEqual(10)

    for (const [ids, each] of [
      [few, 1],
      [many, 5],
    ] as const) {
      expect(await told(ids)).toEqual({
        notifications: 6 * each,
        deliveries: {
          'alice kyc.status_changed telegram': each,
          'alice kyc.status_changed webhook': each,
          'alice security.api_key_created email': each,
          'alice security.api_key_created telegram': each,
          'alice security.api_key_created webhook': each,
          // Bob muted KYC news: the security alert reaches him whatever he muted.
          'bob security.api_key_created email': each,
          'bob security.api_key_created telegram': each,
          'carol security.api_key_created email': each,
        },
      })
    }
    // A delivery job for each delivery, due at once.
    const deliveries = await app.db
      .selectFrom('event_deliveries')
      .select('id')
      .where('event_id', 'in', many)
      .execute()
    const jobs = await app.db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', 'events.deliver')
      .where('done_at', 'is', null)
      .execute()
    const jobFor = new Set(jobs.map((job) => job.payload.delivery_id))
    expect(deliveries.every((delivery) => jobFor.has(delivery.id))).toBe(true)
  })

  it('a dispatch that cannot run (its event id is not one) holds back only itself', async () => {
    const ids = await burst([carol], 1)
    await enqueue(app.db, {
      kind: DISPATCH_JOB,
      tenantId: DEMO_TENANT_ID,
      payload: { event_id: 'not an event id' },
    })
    expect(await runner.runDue()).toEqual({ done: 2, rescheduled: 0, failed: 1 })
    expect(await told(ids)).toEqual({
      notifications: 2,
      deliveries: { 'carol security.api_key_created email': 1 },
    })
    const stuck = await app.db
      .selectFrom('jobs')
      .select(['attempts', 'last_error'])
      .where('kind', '=', DISPATCH_JOB)
      .where('done_at', 'is', null)
      .execute()
    expect(stuck).toHaveLength(1)
    expect(stuck[0]!.attempts).toBe(1)
    expect(stuck[0]!.last_error).toMatch(/uuid/i)
  })

  it('a dispatch repeated in one batch (a lost lease) tells once', async () => {
    const [eventId] = await burst([carol], 1)
    await enqueue(app.db, {
      kind: DISPATCH_JOB,
      tenantId: DEMO_TENANT_ID,
      payload: { event_id: eventId },
    })
    await runner.runDue()
    expect(await told([eventId!])).toEqual({
      notifications: 1,
      deliveries: { 'carol security.api_key_created email': 1 },
    })
  })
})

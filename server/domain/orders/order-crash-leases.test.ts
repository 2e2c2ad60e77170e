import { afterAll, expect, it } from 'vitest'
import { describeServer } from '../../test-support.ts'
import {
  crashableServer,
  heldJobs,
  type Kind,
  openAccount,
  quoteQuery,
} from './order-crash-fixtures.ts'

/**
 * The real server killed with SIGKILL while its runner holds jobs: after the restart every order
 * is final within the default lease. The bench in order-crash-fixtures.ts.
 */
describeServer('orders survive a server killed with SIGKILL', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('kill -9 while jobs are claimed, restart: every order is final within 20 s (the leases are short)', async () => {
    // JOBS_LEASE_MS is the default: how long a dead runner's jobs wait is what is tested.
    // The bank takes 1.5 s per call: a payout's job is in hand that long, so a kill finds one.
    const server = await crashableServer(cleanups, {
      SANDBOX_BANK_LATENCY_MS: '1500',
      SANDBOX_BANK_MS: '1000',
      SANDBOX_BLOCK_MS: '300',
      SANDBOX_MAX_CONFIRMATIONS: '2',
    })
    const { client, env, place } = server
    const { wallet, payee } = await openAccount(client)
    const kinds: Kind[] = [
      ...Array<Kind>(2).fill('sepa'),
      ...Array<Kind>(2).fill('crypto'),
      ...Array<Kind>(8).fill('exchange'),
    ]

    // The runner claims a batch and works through it, a payout's bank call
    // taking 1.5 s: kill it just after a burst of placements, again if it
    // happened to hold nothing then.
    const placed: string[] = []
    for (let round = 0; ; round++) {
      const quotes = []
      for (const kind of kinds) quotes.push(await client.quote(wallet, quoteQuery(kind, payee)))
      const answers = await Promise.all(
        quotes.map((q, i) => client.place(q.order_type, q.quote_id, `lease-${round}-${i}`)),
      )
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(201)
        placed.push(answer.body.id)
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      await server.stop('SIGKILL')
      const killedAt = new Date()
      const held = await heldJobs(env, place.dataDir, killedAt)
      await server.start()
      if (held > 0) break
      expect(round, 'the runner never died holding a job').toBeLessThan(3)
      await client.settled(placed)
    }

    const restarted = Date.now()
    const finals = await client.settled(placed, 20_000)
    expect(Date.now() - restarted).toBeLessThan(20_000)
    expect(finals.map((order) => order.status)).toEqual(finals.map(() => 'COMPLETE'))
  }, 180_000)
})

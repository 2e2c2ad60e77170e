import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProof } from '../../../contract/balance-proof.ts'
import type { PublishedRoot } from '../../../contract/proofs.ts'
import type { Config } from '../../config.ts'
import { createTenant, createTestApp, describeServer } from '../../test-support.ts'
import { EUR } from '../ledger/ledger-test-support.ts'
import { post } from '../ledger/service.ts'
import { ProofsUsageError, parseProofsCommand, runProofsCli } from './cli.ts'
import { fund, myProof, person, publicKey, tenantWithKey } from './proof-test-support.ts'
import { PUBLISH_JOB, RETRY_MS, schedulePublishing } from './publish-job.ts'

const NOW = new Date('2026-11-29T06:00:00.000Z')
const TOMORROW = new Date('2026-11-30T00:00:00.000Z')

describe('the proofs CLI’s command line', () => {
  const id = '2b7c6f0e-9d4a-4f3e-8a1b-5c6d7e8f9a01'
  it.each([
    [['key', id.toUpperCase()], { name: 'key', id, rotate: false }],
    [['key', id, '--rotate'], { name: 'key', id, rotate: true }],
    [['publish', id], { name: 'publish', id }],
    [['--help'], { name: 'help' }],
  ])('%j', (argv, command) => {
    expect(parseProofsCommand(argv)).toEqual(command)
  })

  it.each([
    [[], 'No command given.'],
    [['sign', id], 'Unknown command: proofs sign'],
    [['key'], 'proofs key needs the tenant’s id.'],
    [['publish', 'acme'], 'Not a tenant id (a UUID): acme'],
    [['publish', id, '--rotate'], '--rotate goes with proofs key.'],
    [['key', id, 'extra'], 'Unexpected argument: extra'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseProofsCommand(argv)).toThrowError(new ProofsUsageError(message))
  })
})

describeServer('publishing', () => {
  const sealingKey = new Uint8Array(randomBytes(32))
  let app: FastifyInstance

  beforeAll(async () => {
    app = await createTestApp({ PROOF_KEYS_KEY: Buffer.from(sealingKey).toString('base64url') })
  })
  afterAll(() => app.close())

  const jobRow = () =>
    app.db
      .selectFrom('jobs')
      .select(['run_at', 'done_at'])
      .where('kind', '=', PUBLISH_JOB)
      .where('done_at', 'is', null)
      .executeTakeFirstOrThrow()
  const snapshotsOf = (tenantId: string) =>
    app.db.selectFrom('proof_snapshots').select('id').where('tenant_id', '=', tenantId).execute()

  it('the daily round publishes every tenant with a key, retries one with money arriving, then waits a day', async () => {
    const [settled, arriving] = [await tenantWithKey(app), await tenantWithKey(app)]
    const keyless = await createTenant(app)
    await fund(app, settled, (await person(app, settled)).accounts.user_wallet, EUR, 100n)
    const waiting = await person(app, arriving)
    await fund(app, arriving, waiting.accounts.pending, EUR, 50n)
    await person(app, keyless)

    await schedulePublishing(app.db, app.jobs, app.proofs, NOW)
    expect((await jobRow()).run_at).toEqual(NOW)
    expect(await app.jobs.runDue({ now: NOW })).toMatchObject({ rescheduled: 1 })
    expect(await snapshotsOf(settled)).toHaveLength(1)
    expect(await snapshotsOf(arriving)).toEqual([])
    expect(await snapshotsOf(keyless)).toEqual([])
    expect((await jobRow()).run_at).toEqual(new Date(NOW.getTime() + RETRY_MS))

    await app.db.transaction().execute((trx) =>
      post(trx, {
        tenantId: arriving,
        kind: 'deposit_confirmed',
        idempotencyKey: `confirm:${arriving}`,
        postings: [
          { account: waiting.accounts.pending, currency: EUR, amount: -50n },
          { account: waiting.accounts.user_wallet, currency: EUR, amount: 50n },
        ],
      }),
    )
    const later = new Date(NOW.getTime() + RETRY_MS)
    await app.jobs.runDue({ now: later })
    expect(await snapshotsOf(arriving)).toHaveLength(1)
    expect(await snapshotsOf(settled)).toHaveLength(1)
    expect((await jobRow()).run_at).toEqual(TOMORROW)
  })

  it('at start, the round is brought forward when a tenant has not published today, else left for tomorrow', async () => {
    // Every tenant published on the 29th: a start that day leaves the round for the 30th.
    await schedulePublishing(app.db, app.jobs, app.proofs, NOW)
    expect((await jobRow()).run_at).toEqual(TOMORROW)
    // A tenant made its key since: its proof is due at once.
    await tenantWithKey(app)
    const start = new Date(NOW.getTime() + 3_600_000)
    await schedulePublishing(app.db, app.jobs, app.proofs, start)
    expect((await jobRow()).run_at).toEqual(start)
  })

  describe('npm run tenant -- proofs', () => {
    const lines = { out: [] as string[], err: [] as string[] }
    const output = {
      out: (text: string) => lines.out.push(text),
      err: (text: string) => lines.err.push(text),
    }
    const config = { sandbox: true, secrets: { proofKeysKey: sealingKey } } as Pick<
      Config,
      'sandbox' | 'secrets'
    >
    const cli = (...argv: string[]) => {
      lines.out = []
      lines.err = []
      return runProofsCli(
        argv,
        async () => ({ db: app.db, close: async () => {} }),
        output,
        () => config,
      )
    }

    it('key makes the tenant’s key once, shows it after, and --rotate replaces it', async () => {
      const tenantId = await createTenant(app)
      expect(await cli('key', tenantId)).toBe(0)
      expect(lines.err).toEqual(['Key created.'])
      const made = JSON.parse(lines.out[0]!)
      expect(made).toEqual({ ...(await publicKey(app, tenantId)), created_at: expect.any(String) })

      expect(await cli('key', tenantId)).toBe(0)
      expect(lines.err).toEqual([])
      expect(JSON.parse(lines.out[0]!).key_id).toBe(made.key_id)

      expect(await cli('key', tenantId, '--rotate')).toBe(0)
      expect(lines.err).toEqual(['A new key replaces the old one.'])
      expect(JSON.parse(lines.out[0]!).key_id).not.toBe(made.key_id)
      expect((await publicKey(app, tenantId)).key_id).toBe(JSON.parse(lines.out[0]!).key_id)
    })

    it('publish shows today’s root, signed as the server signs; again, the same root', async () => {
      const tenantId = await tenantWithKey(app)
      const someone = await person(app, tenantId)
      await fund(app, tenantId, someone.accounts.user_wallet, EUR, 194_800n)

      expect(await cli('publish', tenantId)).toBe(0)
      const root = JSON.parse(lines.out[0]!) as PublishedRoot
      expect(root).toMatchObject({
        tenant_id: tenantId,
        leaf_count: 1,
        sums: expect.stringContaining('EUR:194800'),
      })
      expect(root.reserves?.currencies).toContainEqual({
        currency: 'EUR',
        assets: '1948.00',
        liabilities: '1948.00',
        ratio: '1.0000',
      })
      const key = await publicKey(app, tenantId)
      const proof = await myProof(app, someone)
      expect(verifyProof({ tenantId, proof, publicKeyPem: key.public_key_pem }).ok).toBe(true)

      expect(await cli('publish', tenantId)).toBe(0)
      expect(lines.err).toEqual(['Published already today (UTC): this is that root.'])
      expect(JSON.parse(lines.out[0]!)).toEqual(root)
    })

    it('is refused without a key, for no tenant, and while money is still arriving', async () => {
      const keyless = await createTenant(app)
      expect(await cli('publish', keyless)).toBe(1)
      expect(lines.err[0]).toMatch(
        /^Not published: tenant .* has no proof key: npm run tenant -- proofs key /,
      )

      const nobody = '00000000-0000-4000-8000-000000000000'
      expect(await cli('key', nobody)).toBe(1)
      expect(lines.err).toEqual([`No tenant ${nobody}.`])

      const tenantId = await tenantWithKey(app)
      await fund(app, tenantId, (await person(app, tenantId)).accounts.pending, EUR, 1n)
      expect(await cli('publish', tenantId)).toBe(1)
      expect(lines.err[0]).toBe(
        'Not published: money still arriving for 1 person: a snapshot waits until every balance is settled.',
      )
      expect(await snapshotsOf(tenantId)).toEqual([])

      expect(await cli('publish')).toBe(2)
      expect(lines.err[0]).toMatch(/^proofs publish needs the tenant’s id\.\n\nUsage:/)
    })
  })
})

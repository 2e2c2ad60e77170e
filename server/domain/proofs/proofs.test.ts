import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type ProofFailure, verifyProof } from '../../../contract/balance-proof.ts'
import type { MyProof, PublishedRootPage } from '../../../contract/proofs.ts'
import { createTenant, createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { defaultProgramId } from '../issuing/default-programs.ts'
import { EUR, USDT_TRON } from '../ledger/ledger-test-support.ts'
import { post, systemAccount } from '../ledger/service.ts'
import { PublishError } from './errors.ts'
import {
  BTC,
  fiatAccountOf,
  fund,
  mine,
  myProof,
  person,
  publicKey,
  tenantWithKey,
  USDT_ETHEREUM,
} from './proof-test-support.ts'

const NOW = new Date('2026-11-29T06:00:00.000Z')
const DAY = 24 * 60 * 60 * 1000
const CODES = ['BTC', 'ETH', 'EUR', 'GBP', 'POL', 'SOL', 'TRX', 'USD', 'USDC', 'USDT']

describeServer('proof of balances', () => {
  let app: FastifyInstance

  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app.close())

  /** The ledger's liabilities per code, summed here in SQL apart from the service's own read. */
  async function ledgerLiabilities(tenantId: string) {
    const { rows } = await sql<{ code: string; total: string }>`
      select c.code, coalesce(sum(b.balance_minor), 0)::text as total
      from currencies c
      left join account_balances b on b.currency_uuid = c.uuid and b.account_id in (
        select id from ledger_accounts
        where tenant_id = ${tenantId}::uuid and kind in ('user_wallet', 'held', 'sub_account'))
      group by c.code order by c.code`.execute(app.db)
    return rows.map((row) => `${row.code}:${row.total}`).join(',')
  }

  it('the root equals the ledger’s liabilities: wallets, holds and fiat accounts, every currency', async () => {
    const tenantId = await tenantWithKey(app)
    const mia = await person(app, tenantId)
    await fund(app, tenantId, mia.accounts.user_wallet, EUR, 194_800n)
    await fund(app, tenantId, mia.accounts.user_wallet, BTC, 1_275_277n)
    await fund(app, tenantId, mia.accounts.held, USDT_TRON, 500_000_000n)
    await fund(app, tenantId, mia.accounts.user_wallet, USDT_ETHEREUM, 100_000_000n)
    const account = await fiatAccountOf(app, mia, defaultProgramId(tenantId, 'eur-prepaid'))
    await fund(app, tenantId, account.ledgerAccount, EUR, 20_000n)
    const ben = await person(app, tenantId)
    await fund(app, tenantId, ben.accounts.user_wallet, EUR, 1_000n)
    await person(app, tenantId)
    // What the tenant earns is not owed to anyone.
    await app.db.transaction().execute(async (trx) =>
      post(trx, {
        tenantId,
        kind: 'fee',
        idempotencyKey: `fee:${tenantId}`,
        postings: [
          { account: ben.accounts.user_wallet, currency: EUR, amount: -200n },
          { account: await systemAccount(trx, tenantId, 'fees'), currency: EUR, amount: 200n },
        ],
      }),
    )

    const { root, published } = await app.proofs.publish(tenantId, NOW)
    expect(published).toBe(true)
    expect(root.sums).toBe(await ledgerLiabilities(tenantId))
    expect(root.sums).toBe(
      'BTC:1275277,ETH:0,EUR:215600,GBP:0,POL:0,SOL:0,TRX:0,USD:0,USDC:0,USDT:600000000',
    )
    expect(root.sums.split(',').map((item) => item.split(':')[0])).toEqual(CODES)
    expect(root).toMatchObject({ tenant_id: tenantId, leaf_count: 4, taken_at: NOW.toISOString() })
    // Every unit that came in is held; the fee is the platform's, so euros are covered past 1.
    expect(root.reserves?.currencies).toEqual(
      expect.arrayContaining([
        { currency: 'EUR', assets: '2158.00', liabilities: '2156.00', ratio: '1.0009' },
        { currency: 'BTC', assets: '0.01275277', liabilities: '0.01275277', ratio: '1.0000' },
        { currency: 'GBP', assets: '0.00', liabilities: '0.00', ratio: null },
      ]),
    )

    const proof = await myProof(app, mia)
    expect(proof.root).toEqual(root)
    expect(proof.leaf.sums).toBe(
      'BTC:1275277,ETH:0,EUR:214800,GBP:0,POL:0,SOL:0,TRX:0,USD:0,USDC:0,USDT:600000000',
    )
    expect(proof.path).toHaveLength(2)
    expect(proof.balances_at_snapshot).toEqual([
      {
        currency: 'BTC',
        amount: '0.01275277',
        parts: [expect.objectContaining({ source: 'wallet', id: mia.wallet.uuid })],
      },
      {
        currency: 'EUR',
        amount: '2148.00',
        parts: [
          {
            source: 'fiat_account',
            id: account.id,
            wallet_type: null,
            program_name: expect.any(String),
            account_last4: expect.stringMatching(/^[0-9]{4}$/),
            amount: '200.00',
          },
          {
            source: 'wallet',
            id: mia.wallet.uuid,
            wallet_type: 'personal',
            program_name: null,
            account_last4: null,
            amount: '1948.00',
          },
        ],
      },
      {
        currency: 'USDT',
        amount: '600.000000',
        parts: [expect.objectContaining({ amount: '600.000000' })],
      },
    ])
    const key = await publicKey(app, tenantId)
    expect(verifyProof({ tenantId, proof, publicKeyPem: key.public_key_pem })).toMatchObject({
      ok: true,
      keyId: key.key_id,
    })
  })

  it('a snapshot with money still arriving is refused, loudly, and nothing is published', async () => {
    const tenantId = await tenantWithKey(app)
    const ada = await person(app, tenantId)
    await fund(app, tenantId, ada.accounts.user_wallet, EUR, 5_000n)
    await fund(app, tenantId, ada.accounts.pending, BTC, 10_000n)

    const refused = await app.proofs.publish(tenantId, NOW).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PublishError)
    expect((refused as PublishError).failure).toEqual({
      kind: 'BALANCES_UNSETTLED',
      pending: 1,
      negative: 0,
    })
    const roots = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/roots` })
    expect(roots.json<PublishedRootPage>().data).toEqual([])
    expectProblem(await mine(app, ada), 404, 'PROOF_NOT_PUBLISHED')

    // The deposit confirms: the next try publishes.
    await app.db.transaction().execute((trx) =>
      post(trx, {
        tenantId,
        kind: 'deposit_confirmed',
        idempotencyKey: `confirm:${tenantId}`,
        postings: [
          { account: ada.accounts.pending, currency: BTC, amount: -10_000n },
          { account: ada.accounts.user_wallet, currency: BTC, amount: 10_000n },
        ],
      }),
    )
    expect((await app.proofs.publish(tenantId, NOW)).root.sums).toMatch(/^BTC:10000,.*EUR:5000,/)
  })

  it('each tampering fails verification with its own reason', async () => {
    const tenantId = await tenantWithKey(app)
    const people = [await person(app, tenantId), await person(app, tenantId)]
    await fund(app, tenantId, people[0]!.accounts.user_wallet, EUR, 194_800n)
    await fund(app, tenantId, people[1]!.accounts.user_wallet, BTC, 5_000n)
    await app.proofs.publish(tenantId, NOW)
    const proof = await myProof(app, people[0]!)
    const key = await publicKey(app, tenantId)
    const verify = (tampered: MyProof, pem = key.public_key_pem, pinnedKeyId?: string) =>
      verifyProof({ tenantId, proof: tampered, publicKeyPem: pem, pinnedKeyId })
    const flipped = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1)

    const cases: [string, MyProof, ProofFailure][] = [
      [
        'a leaf claiming more',
        {
          ...proof,
          leaf: { ...proof.leaf, sums: proof.leaf.sums.replace('EUR:194800', 'EUR:194900') },
        },
        'hash_mismatch',
      ],
      [
        'a sibling with a negative sum',
        {
          ...proof,
          path: [{ ...proof.path[0]!, sums: proof.path[0]!.sums.replace('BTC:5000', 'BTC:-5000') }],
        },
        'negative_sum',
      ],
      [
        'a root whose sums do not add up',
        { ...proof, root: { ...proof.root, sums: proof.root.sums.replace('EUR:194800', 'EUR:1') } },
        'sums_mismatch',
      ],
      [
        'a wrong signature',
        { ...proof, root: { ...proof.root, signature: flipped(proof.root.signature) } },
        'bad_signature',
      ],
    ]
    expect(verify(proof)).toMatchObject({ ok: true })
    for (const [, tampered, failure] of cases) {
      expect(verify(tampered)).toMatchObject({ ok: false, failure })
    }

    // A new key: the root the old one signed is stale, and a device that pinned the old one says so.
    const { key: rotated } = await app.proofs.keys.ensure(tenantId, { rotate: true })
    const now = await publicKey(app, tenantId)
    expect(now.key_id).toBe(rotated.keyId)
    expect(now.key_id).not.toBe(key.key_id)
    expect(verify(proof, now.public_key_pem)).toMatchObject({ ok: false, failure: 'stale_key' })
    expect(verify(proof, now.public_key_pem, key.key_id)).toMatchObject({
      ok: false,
      failure: 'key_changed',
    })
  })

  it('two people’s proofs share the root and reveal no other person’s nonce or balances', async () => {
    const tenantId = await tenantWithKey(app)
    const [ana, bo] = [await person(app, tenantId), await person(app, tenantId)]
    await person(app, tenantId)
    await fund(app, tenantId, ana.accounts.user_wallet, EUR, 12_345n)
    await fund(app, tenantId, bo.accounts.user_wallet, EUR, 67_890n)
    await app.proofs.publish(tenantId, NOW)

    const [mineA, mineB] = [await mine(app, ana), await mine(app, bo)]
    const [proofA, proofB] = [mineA.json<MyProof>(), mineB.json<MyProof>()]
    expect(proofA.root).toEqual(proofB.root)
    expect(proofA.leaf.nonce).not.toBe(proofB.leaf.nonce)
    const key = await publicKey(app, tenantId)
    for (const proof of [proofA, proofB]) {
      expect(verifyProof({ tenantId, proof, publicKeyPem: key.public_key_pem }).ok).toBe(true)
    }
    // Nothing in Ana's answer names Bo or opens Bo's leaf: not his nonce, id, wallet or balances.
    for (const secret of [proofB.leaf.nonce, bo.userId, bo.wallet.uuid, '678.90']) {
      expect(mineA.body).not.toContain(secret)
    }
    expect(proofA.balances_at_snapshot).toEqual([
      expect.objectContaining({ currency: 'EUR', amount: '123.45' }),
    ])
    // The stored nonces are fresh per person: none is given twice.
    const nonces = await app.db.selectFrom('proof_leaves').select('nonce').execute()
    expect(new Set(nonces.map((row) => row.nonce)).size).toBe(nonces.length)
  })

  it('publishing is idempotent per day, even twice at once; the next day is a new snapshot', async () => {
    const tenantId = await tenantWithKey(app)
    const kit = await person(app, tenantId)
    await fund(app, tenantId, kit.accounts.user_wallet, EUR, 100n)

    const [first, second] = await Promise.all([
      app.proofs.publish(tenantId, NOW),
      app.proofs.publish(tenantId, new Date(NOW.getTime() + 60_000)),
    ])
    expect(first.root).toEqual(second.root)
    expect([first.published, second.published].sort()).toEqual([false, true])
    const again = await app.proofs.publish(tenantId, new Date(NOW.getTime() + 3_600_000))
    expect(again).toEqual({ root: first.root, published: false })
    const snapshots = await app.db
      .selectFrom('proof_snapshots')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .execute()
    expect(snapshots).toHaveLength(1)

    const tomorrow = await app.proofs.publish(tenantId, new Date(NOW.getTime() + DAY))
    expect(tomorrow.published).toBe(true)
    expect(tomorrow.root.snapshot_id).not.toBe(first.root.snapshot_id)
    const roots = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/roots` })
    expect(roots.json<PublishedRootPage>()).toMatchObject({
      data: [{ snapshot_id: tomorrow.root.snapshot_id }, { snapshot_id: first.root.snapshot_id }],
      total: 2,
      is_last_page: true,
    })
    expect((await myProof(app, kit)).root.snapshot_id).toBe(tomorrow.root.snapshot_id)

    // A week on, the first day's tree is dropped; its root stays published.
    await app.proofs.publish(tenantId, new Date(NOW.getTime() + 9 * DAY))
    const nodes = await app.db
      .selectFrom('proof_nodes')
      .select('level')
      .where('snapshot_id', '=', first.root.snapshot_id)
      .execute()
    expect(nodes).toEqual([])
    const kept = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/roots` })
    expect(kept.json<PublishedRootPage>().data.map((root) => root.snapshot_id)).toContain(
      first.root.snapshot_id,
    )
  })

  it('the roots and the key are public and cacheable; a person’s proof is their session’s', async () => {
    const tenantId = await tenantWithKey(app)
    const eve = await person(app, tenantId)
    await app.proofs.publish(tenantId, NOW)

    const roots = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/roots?limit=1` })
    expect(roots.statusCode, roots.body).toBe(200)
    expect(roots.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600')
    const key = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/key` })
    expect(key.statusCode, key.body).toBe(200)
    expect(key.headers['cache-control']).toMatch(/^public, max-age=3600/)
    expect(key.json()).toMatchObject({
      algorithm: 'Ed25519',
      public_key_pem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
    })

    const nobody = '00000000-0000-4000-8000-000000000000'
    expectProblem(
      await app.inject({ method: 'GET', url: `/api/proofs/${nobody}/roots` }),
      404,
      'TENANT_NOT_FOUND',
    )
    const keyless = await app.inject({ method: 'GET', url: '/api/proofs/not-a-tenant/key' })
    expect(keyless.statusCode).toBeGreaterThanOrEqual(400)
    expect(keyless.statusCode).toBeLessThan(500)
    const unsigned = await createTenant(app)
    expectProblem(
      await app.inject({ method: 'GET', url: `/api/proofs/${unsigned}/key` }),
      404,
      'PROOF_KEY_NOT_FOUND',
    )

    expectProblem(
      await app.inject({
        method: 'GET',
        url: '/api/v2/proofs/latest/mine',
        headers: eve.on,
      }),
      401,
      'UNAUTHORIZED',
    )
    const late = await person(app, tenantId)
    expectProblem(await mine(app, late), 404, 'NOT_IN_PROOF')
    expect((await mine(app, eve)).headers['cache-control']).toBe('private, no-cache')
  })
})

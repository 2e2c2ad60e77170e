import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { CHAIN_IDS, type ChainId } from '../../../contract/catalog.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { Wallet, WalletAddress, WalletAddressList } from '../../../contract/wallets.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { deriveAddress } from './derive.ts'
import { SeedStore } from './seed-store.ts'
import { validateAddress } from './validate.ts'

const KEY = Buffer.alloc(32, 5)

describeServer('deposit addresses', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ ADDRESS_SEED_KEY: KEY.toString('base64url') })
  })
  afterAll(() => app?.close())

  const call = (pair: TokenPair, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v2${url}`,
      headers: headers(bearer(pair.access_token)),
      ...(payload && { payload }),
    })

  async function createWallet(pair: TokenPair) {
    const response = await call(pair, 'POST', '/wallets', { type: 'personal' })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Wallet>()
  }

  async function createAddress(pair: TokenPair, wallet: string, chain: string, label?: string) {
    const response = await call(pair, 'POST', `/wallets/${wallet}/addresses/${chain}`, {
      ...(label !== undefined && { label }),
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<WalletAddress>()
  }

  const derivationIndex = async (id: string) =>
    (
      await app.db
        .selectFrom('wallet_addresses')
        .select('derivation_index')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).derivation_index

  it('every chain hands out addresses valid on it, derived from the tenant seed at the next index', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair)
    const seed = await new SeedStore(KEY).seedOf(app.db, DEMO_TENANT_ID)
    for (const chain of CHAIN_IDS) {
      const first = await createAddress(pair, wallet.uuid, chain, 'Savings')
      const second = await createAddress(pair, wallet.uuid, chain)
      expect(first).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        wallet_uuid: wallet.uuid,
        chain,
        address: expect.any(String),
        label: 'Savings',
        created_at: expect.any(String),
      })
      expect(second.label).toBeNull()
      expect(second.address).not.toBe(first.address)
      for (const address of [first, second]) {
        expect(validateAddress(chain, address.address), `${chain} ${address.address}`).toEqual({
          ok: true,
          normalized: address.address,
        })
        // Deterministic: the stored index and the tenant seed give the address again.
        expect(deriveAddress(seed, chain, await derivationIndex(address.uuid))).toBe(
          address.address,
        )
      }
    }
  })

  it('Ethereum and Polygon share one index sequence, so no address is ever handed to two wallets', async () => {
    const alice = await signUp(app)
    const bob = await signUp(app)
    const a = await createWallet(alice)
    const b = await createWallet(bob)
    const handed: WalletAddress[] = []
    for (const [pair, wallet, chain] of [
      [alice, a, 'ethereum'],
      [bob, b, 'polygon'],
      [alice, a, 'polygon'],
      [bob, b, 'ethereum'],
      [bob, b, 'polygon'],
    ] as const) {
      handed.push(await createAddress(pair, wallet.uuid, chain))
    }
    const all = await app.db
      .selectFrom('wallet_addresses')
      .select(['address', 'wallet_id', 'derivation_index'])
      .where('chain', 'in', ['ethereum', 'polygon'])
      .where('tenant_id', '=', DEMO_TENANT_ID)
      .execute()
    const owners = new Map<string, Set<string>>()
    for (const row of all) {
      const key = row.address.toLowerCase()
      owners.set(key, (owners.get(key) ?? new Set()).add(row.wallet_id))
    }
    expect([...owners.values()].every((set) => set.size === 1)).toBe(true)
    expect(new Set(all.map((row) => row.derivation_index)).size).toBe(all.length)
    expect(new Set(handed.map((x) => x.address.toLowerCase())).size).toBe(handed.length)
  })

  it('parallel requests never share an index', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair)
    const created = await Promise.all(
      Array.from({ length: 12 }, () => createAddress(pair, wallet.uuid, 'tron')),
    )
    expect(new Set(created.map((x) => x.address)).size).toBe(12)
  })

  it('the list holds every address of the wallet on the chain, oldest first, on one page', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair)
    const made: WalletAddress[] = []
    for (let i = 0; i < 3; i++)
      made.push(await createAddress(pair, wallet.uuid, 'bitcoin', `#${i}`))
    await createAddress(pair, wallet.uuid, 'solana')

    const response = await call(pair, 'GET', `/wallets/${wallet.uuid}/addresses/bitcoin`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<WalletAddressList>()).toEqual({
      data: made,
      total: 3,
      limit: 3,
      offset: 0,
      is_last_page: true,
    })
    const none = (await call(pair, 'GET', `/wallets/${wallet.uuid}/addresses/ethereum`)).json()
    expect(none).toEqual({ data: [], total: 0, limit: 0, offset: 0, is_last_page: true })
  })

  it('another user’s wallet answers 404 WALLET_NOT_FOUND, for creating and for listing', async () => {
    const owner = await signUp(app)
    const stranger = await signUp(app)
    const wallet = await createWallet(owner)
    await createAddress(owner, wallet.uuid, 'ethereum')
    expectProblem(
      await call(stranger, 'POST', `/wallets/${wallet.uuid}/addresses/ethereum`, {}),
      404,
      'WALLET_NOT_FOUND',
    )
    expectProblem(
      await call(stranger, 'GET', `/wallets/${wallet.uuid}/addresses/ethereum`),
      404,
      'WALLET_NOT_FOUND',
    )
    const missing = '0190f5a4-0000-7000-8000-000000000000'
    expectProblem(
      await call(owner, 'GET', `/wallets/${missing}/addresses/ethereum`),
      404,
      'WALLET_NOT_FOUND',
    )
  })

  it('an unknown chain, a malformed wallet id or a long label answers 422 naming it', async () => {
    const pair = await signUp(app)
    const wallet = await createWallet(pair)
    const cases: [string, string, object | undefined, string][] = [
      ['POST', `/wallets/${wallet.uuid}/addresses/dogecoin`, {}, '/params/chain'],
      ['GET', `/wallets/${wallet.uuid}/addresses/dogecoin`, undefined, '/params/chain_id'],
      ['POST', '/wallets/nope/addresses/bitcoin', {}, '/params/wallet_uuid'],
      [
        'POST',
        `/wallets/${wallet.uuid}/addresses/bitcoin`,
        { label: 'x'.repeat(101) },
        '/body/label',
      ],
    ]
    for (const [method, url, payload, field] of cases) {
      const problem = expectProblem(
        await call(pair, method as 'GET' | 'POST', url, payload),
        422,
        'VALIDATION_FAILED',
      )
      expect(problem.errors?.map((e) => e.field)).toContain(field)
    }
  })

  it('the seed is stored encrypted, bound to its tenant, and one per tenant', async () => {
    const store = new SeedStore(KEY)
    const tenantId = await createTenant(app)
    const seed = await store.seedOf(app.db, tenantId)
    expect(seed).toHaveLength(32)
    const again = await new SeedStore(KEY).seedOf(app.db, tenantId)
    expect(Buffer.from(again)).toEqual(Buffer.from(seed))
    const row = await app.db
      .selectFrom('tenant_address_seeds')
      .select('seed_ciphertext')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow()
    expect(row.seed_ciphertext).toMatch(/^v1\./)
    expect(row.seed_ciphertext).not.toContain(Buffer.from(seed).toString('base64url'))
    expect(() => new SeedStore(Buffer.alloc(32, 6)).decrypt(tenantId, row.seed_ciphertext)).toThrow(
      /does not decrypt/,
    )
    expect(() => store.decrypt(DEMO_TENANT_ID, row.seed_ciphertext)).toThrow(/does not decrypt/)
    // Different tenants, different seeds: their addresses never coincide.
    const demo = await store.seedOf(app.db, DEMO_TENANT_ID)
    expect(deriveAddress(demo, 'bitcoin' as ChainId, 0)).not.toBe(deriveAddress(seed, 'bitcoin', 0))
  })
})

import type { FastifyInstance } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type {
  Counterparty,
  CounterpartyList,
  Destination,
  DestinationList,
} from '../../../contract/counterparties.ts'
import type { OrderStatus, OrderTarget } from '../../../contract/orders.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import type { DB } from '../../infra/db/schema.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { EUR } from '../ledger/ledger-test-support.ts'
import { findDestinationForWallet } from './service.ts'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'
const SOLANA = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
const NO_SUCH_ID = '0190f5a4-0000-7000-8000-000000000000'

const anna = { type: 'INDIVIDUAL', first_name: 'Anna', last_name: 'Schmidt', country: 'DE' }
const acme = { type: 'BUSINESS', legal_name: 'Acme GmbH', country: 'DE' }

describeServer('counterparties', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
  const call = (
    pair: TokenPair,
    method: Method,
    url: string,
    payload?: object,
    extraHeaders: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url: `/api/v2/counterparties${url}`,
      headers: headers({ ...bearer(pair.access_token), ...extraHeaders }),
      ...(payload && { payload }),
    })

  /** A new user with one wallet. */
  async function owner() {
    const pair = await signUp(app, { stepUp: true })
    const wallet = await createWallet(app, pair.access_token)
    return { pair, wallet: wallet.uuid }
  }

  async function createCounterparty(pair: TokenPair, wallet: string, body: object = anna) {
    const response = await call(pair, 'POST', `/${wallet}`, body)
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Counterparty>()
  }

  async function createDestination(pair: TokenPair, path: string, body: object) {
    const response = await call(pair, 'POST', `${path}/destinations`, body)
    expect(response.statusCode, response.body).toBe(201)
    return response.json<Destination>()
  }

  /** A user, a wallet and a counterparty in it; `path` is the counterparty's URL under the base. */
  async function book(body: object = anna) {
    const { pair, wallet } = await owner()
    const counterparty = await createCounterparty(pair, wallet, body)
    return {
      pair,
      wallet,
      counterparty,
      path: `/${wallet}/${counterparty.counterparty_account_id}`,
    }
  }

  const errorFields = (problem: { errors?: { field: string }[] }) =>
    (problem.errors ?? []).map((error) => error.field)

  async function userIdOf(wallet: string) {
    const row = await app.db
      .selectFrom('wallets')
      .select('user_id')
      .where('id', '=', wallet)
      .executeTakeFirstOrThrow()
    return row.user_id
  }

  describe('counterparties', () => {
    it('an individual is saved, answered with its name and no destinations, and read back', async () => {
      const { pair, wallet } = await owner()
      const created = await createCounterparty(pair, wallet, {
        ...anna,
        first_name: '  Anna ',
        email: 'anna@example.com',
        phone: '+49 30 901820',
        address: {
          country: 'DE',
          city: ' Berlin ',
          line1: 'Unter den Linden 1',
          postal_code: '10117',
        },
      })
      expect(created).toEqual({
        counterparty_account_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        wallet_id: wallet,
        type: 'INDIVIDUAL',
        name: 'Anna Schmidt',
        first_name: 'Anna',
        last_name: 'Schmidt',
        legal_name: null,
        email: 'anna@example.com',
        phone: '+4930901820',
        country: 'DE',
        address: {
          country: 'DE',
          city: 'Berlin',
          line1: 'Unter den Linden 1',
          postal_code: '10117',
        },
        destinations_count: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      })
      const read = await call(pair, 'GET', `/${wallet}/${created.counterparty_account_id}`)
      expect(read.statusCode).toBe(200)
      expect(read.json()).toEqual(created)
    })

    it('a business needs its legal name, an individual first and last name: 422 naming each', async () => {
      const { pair, wallet } = await owner()
      const business = expectProblem(
        await call(pair, 'POST', `/${wallet}`, {
          type: 'BUSINESS',
          first_name: 'Bob',
          country: 'DE',
        }),
        422,
        'VALIDATION_FAILED',
      )
      expect(errorFields(business)).toEqual(['/body/legal_name', '/body/first_name'])
      const individual = expectProblem(
        await call(pair, 'POST', `/${wallet}`, {
          type: 'INDIVIDUAL',
          last_name: 'X',
          country: 'QQ',
        }),
        422,
        'VALIDATION_FAILED',
      )
      expect(errorFields(individual)).toEqual(['/body/first_name', '/body/country'])
      expect((await call(pair, 'GET', `/${wallet}`)).json<CounterpartyList>().total).toBe(0)
    })

    it('PATCH changes the fields sent, clears with null, and checks the result as a whole', async () => {
      const { pair, path } = await book({ ...anna, phone: '+4930901820' })

      const changed = await call(pair, 'PATCH', path, { email: 'a@example.com', phone: null })
      expect(changed.statusCode, changed.body).toBe(200)
      expect(changed.json<Counterparty>()).toMatchObject({
        email: 'a@example.com',
        phone: null,
        name: 'Anna Schmidt',
      })

      const cleared = expectProblem(
        await call(pair, 'PATCH', path, { last_name: null }),
        422,
        'VALIDATION_FAILED',
      )
      expect(errorFields(cleared)).toEqual(['/body/last_name'])
      expectProblem(await call(pair, 'PATCH', path, { type: 'BUSINESS' }), 422, 'VALIDATION_FAILED')
      expectProblem(await call(pair, 'PATCH', path, {}), 422, 'VALIDATION_FAILED')

      const renamed = await call(pair, 'PATCH', path, { last_name: 'Schmidt-Weber' })
      expect(renamed.json<Counterparty>().name).toBe('Anna Schmidt-Weber')
      expect((await call(pair, 'GET', path)).json<Counterparty>()).toMatchObject({
        last_name: 'Schmidt-Weber',
        email: 'a@example.com',
      })
    })

    it('the list is alphabetical by name, filters by type and name, and pages', async () => {
      const { pair, wallet } = await owner()
      for (const body of [
        { ...anna, first_name: 'zoe', last_name: 'Adams' },
        acme,
        anna,
        { type: 'BUSINESS', legal_name: 'bakery 100%', country: 'FR' },
        { ...anna, first_name: 'Carl', last_name: 'Acmeson' },
      ]) {
        await createCounterparty(pair, wallet, body)
      }
      const names = async (query: string) => {
        const response = await call(pair, 'GET', `/${wallet}${query}`)
        expect(response.statusCode, response.body).toBe(200)
        return response.json<CounterpartyList>()
      }

      expect((await names('')).data.map((c) => c.name)).toEqual([
        'Acme GmbH',
        'Anna Schmidt',
        'bakery 100%',
        'Carl Acmeson',
        'zoe Adams',
      ])
      expect((await names('?type=BUSINESS')).data.map((c) => c.name)).toEqual([
        'Acme GmbH',
        'bakery 100%',
      ])
      expect((await names('?search=ACME')).data.map((c) => c.name)).toEqual([
        'Acme GmbH',
        'Carl Acmeson',
      ])
      expect((await names('?search=na%20sch')).data.map((c) => c.name)).toEqual(['Anna Schmidt'])
      expect((await names('?search=ADAMS&type=INDIVIDUAL')).total).toBe(1)
      // A % typed in the search box is a percent sign, not a wildcard.
      expect((await names('?search=0%25')).data.map((c) => c.name)).toEqual(['bakery 100%'])
      expect((await names('?search=a%25')).total).toBe(0)

      const first = await names('?limit=2')
      expect(first).toMatchObject({ total: 5, limit: 2, offset: 0, is_last_page: false })
      const last = await names('?limit=2&offset=4')
      expect(last).toMatchObject({ total: 5, offset: 4, is_last_page: true })
      expect(last.data.map((c) => c.name)).toEqual(['zoe Adams'])
      expectProblem(await call(pair, 'GET', `/${wallet}?type=PERSON`), 422, 'VALIDATION_FAILED')
    })

    it('another user’s wallet answers 404 WALLET_NOT_FOUND on every route, like a missing one', async () => {
      const { pair, wallet, path, counterparty } = await book()
      const destination = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      // Stepped up: past the second look, the wallet of another is as missing as none.
      const stranger = await signUp(app, { stepUp: true })
      const destinationPath = `${path}/destinations/${destination.counterparty_destination_id}`
      const attempts: [Method, string, object?][] = [
        ['GET', `/${wallet}`],
        ['POST', `/${wallet}`, anna],
        ['GET', path],
        ['PATCH', path, { email: 'x@example.com' }],
        ['GET', `${path}/destinations`],
        ['POST', `${path}/destinations`, { type: 'SEPA', iban: 'DE89370400440532013000' }],
        ['GET', destinationPath],
        ['PATCH', destinationPath, { label: 'mine now' }],
        ['DELETE', destinationPath],
        ['GET', `/${NO_SUCH_ID}`],
      ]
      for (const [method, url, body] of attempts) {
        expectProblem(await call(stranger, method, url, body), 404, 'WALLET_NOT_FOUND')
      }
      expect((await call(pair, 'GET', path)).json<Counterparty>()).toMatchObject({
        email: null,
        destinations_count: 1,
      })
      expect(counterparty.wallet_id).toBe(wallet)
    })

    it('a counterparty of another wallet, even the same user’s, answers 404 COUNTERPARTY_NOT_FOUND', async () => {
      const { pair, counterparty } = await book()
      const other = await createWallet(app, pair.access_token)
      const elsewhere = `/${other.uuid}/${counterparty.counterparty_account_id}`
      expectProblem(await call(pair, 'GET', elsewhere), 404, 'COUNTERPARTY_NOT_FOUND')
      expectProblem(
        await call(pair, 'GET', `${elsewhere}/destinations`),
        404,
        'COUNTERPARTY_NOT_FOUND',
      )
      expectProblem(
        await call(pair, 'PATCH', elsewhere, { email: 'x@example.com' }),
        404,
        'COUNTERPARTY_NOT_FOUND',
      )
      expectProblem(
        await call(pair, 'GET', `/${other.uuid}/${NO_SUCH_ID}`),
        404,
        'COUNTERPARTY_NOT_FOUND',
      )
      const malformed = expectProblem(
        await call(pair, 'GET', `/${other.uuid}/not-a-uuid`),
        422,
        'VALIDATION_FAILED',
      )
      expect(errorFields(malformed)).toEqual(['/params/counterparty_account_id'])
    })

    it('another tenant sees nothing of this one, and pays none of its wallets internally', async () => {
      const { pair, wallet, path } = await book()
      const tenant = await createTenant(app)
      const theirHeaders = headers({ 'x-tenant-id': tenant })
      const theirs = await signUp(app, { stepUp: true, headers: theirHeaders })
      const theirWallet = (
        await app.inject({
          method: 'POST',
          url: '/api/v2/wallets',
          headers: { ...theirHeaders, ...bearer(theirs.access_token) },
          payload: { type: 'personal' },
        })
      ).json<{ uuid: string }>().uuid
      const inTheirTenant = { 'x-tenant-id': tenant }

      expectProblem(
        await call(theirs, 'GET', path, undefined, inTheirTenant),
        404,
        'WALLET_NOT_FOUND',
      )
      expectProblem(
        await call(theirs, 'GET', `/${wallet}`, undefined, inTheirTenant),
        404,
        'WALLET_NOT_FOUND',
      )
      const internal = expectProblem(
        await call(pair, 'POST', `${path}/destinations`, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: theirWallet,
        }),
        422,
        'DESTINATION_INVALID',
      )
      expect(errorFields(internal)).toEqual(['/body/wallet_uuid'])
    })
  })

  describe('destinations', () => {
    type Valid = [name: string, body: Record<string, unknown>, stored: Record<string, unknown>]
    const valid: Valid[] = [
      [
        'SEPA, a German IBAN typed in groups',
        { type: 'SEPA', iban: 'de89 3704 0044 0532 0130 00', label: 'Rent' },
        { iban: 'DE89370400440532013000', label: 'Rent', display: 'DE89 … 3000' },
      ],
      [
        'SEPA, a British IBAN with its BIC in lower case',
        { type: 'SEPA', iban: 'GB29NWBK60161331926819', bic: 'nwbkgb2l' },
        { iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L', display: 'GB29 … 6819' },
      ],
      [
        'SEPA, a French IBAN with an 11-character BIC',
        { type: 'SEPA', iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX' },
        { iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPPXXX', display: 'FR14 … 2606' },
      ],
      [
        'SWIFT, an account number at a German bank',
        { type: 'SWIFT', bic: 'DEUTDEFF', account_number: '0532 0130 00', bank_country: 'DE' },
        { bic: 'DEUTDEFF', account_number: '0532013000', bank_country: 'DE', display: '••3000' },
      ],
      [
        'SWIFT, a Turkish IBAN (outside SEPA)',
        {
          type: 'SWIFT',
          bic: 'NWBKGB2L',
          iban: 'TR330006100519786457841326',
          bank_country: 'GB',
        },
        { iban: 'TR330006100519786457841326', display: 'TR33 … 1326' },
      ],
      [
        'ACH, routing 021000021',
        {
          type: 'ACH',
          routing_number: '021000021',
          account_number: '000123456789',
          account_type: 'checking',
          bank_name: 'JPMorgan Chase',
        },
        { routing_number: '021000021', account_type: 'checking', display: '••6789' },
      ],
      [
        'DOMESTIC_WIRE, routing and account number',
        { type: 'DOMESTIC_WIRE', routing_number: '011 000 015', account_number: '1234567' },
        { routing_number: '011000015', account_number: '1234567', display: '••4567' },
      ],
      [
        'CRYPTO_EXTERNAL, an Ethereum address in lower case',
        { type: 'CRYPTO_EXTERNAL', chain: 'ethereum', address: EVM.toLowerCase() },
        { chain: 'ethereum', address: EVM, display: '0x5290…9EE7' },
      ],
      [
        'CRYPTO_EXTERNAL, a Bitcoin segwit address',
        { type: 'CRYPTO_EXTERNAL', chain: 'bitcoin', address: BTC },
        { address: BTC, display: 'bc1q…f3t4' },
      ],
      [
        'CRYPTO_EXTERNAL, a Solana address',
        { type: 'CRYPTO_EXTERNAL', chain: 'solana', address: SOLANA },
        { address: SOLANA, display: 'HAgk…Kpqk' },
      ],
    ]

    it.each(valid)('accepts %s', async (_name, body, stored) => {
      const { pair, path, counterparty } = await book()
      const created = await createDestination(pair, path, body)
      expect(created).toMatchObject({
        counterparty_destination_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        counterparty_account_id: counterparty.counterparty_account_id,
        type: body.type,
        ...stored,
      })
      const read = await call(
        pair,
        'GET',
        `${path}/destinations/${created.counterparty_destination_id}`,
      )
      expect(read.json()).toEqual(created)
    })

    type Invalid = [name: string, body: Record<string, unknown>, fields: string[]]
    const invalid: Invalid[] = [
      [
        'SEPA, wrong IBAN check digits',
        { type: 'SEPA', iban: 'DE89370400440532013001' },
        ['/body/iban'],
      ],
      [
        'SEPA, a British IBAN with a typo',
        { type: 'SEPA', iban: 'GB29NWBK60161331926818' },
        ['/body/iban'],
      ],
      [
        'SEPA, an IBAN outside SEPA',
        { type: 'SEPA', iban: 'TR330006100519786457841326' },
        ['/body/iban'],
      ],
      [
        'SEPA, a bad BIC and an ACH field',
        { type: 'SEPA', iban: 'DE89370400440532013000', bic: 'DEUT', routing_number: '021000021' },
        ['/body/bic', '/body/routing_number'],
      ],
      ['SEPA, no IBAN', { type: 'SEPA' }, ['/body/iban']],
      [
        'SWIFT, bank country other than the BIC’s',
        { type: 'SWIFT', bic: 'DEUTDEFF', account_number: '123456', bank_country: 'GB' },
        ['/body/bank_country'],
      ],
      [
        'SWIFT, neither account number nor IBAN',
        { type: 'SWIFT', bic: 'NWBKGB2L', bank_country: 'GB' },
        ['/body/account_number'],
      ],
      [
        'SWIFT, an IBAN with wrong check digits',
        {
          type: 'SWIFT',
          bic: 'BNPAFRPPXXX',
          iban: 'FR1420041010050500013M02607',
          bank_country: 'FR',
        },
        ['/body/iban'],
      ],
      [
        'ACH, routing 021000022 (checksum)',
        {
          type: 'ACH',
          routing_number: '021000022',
          account_number: '123456789',
          account_type: 'savings',
        },
        ['/body/routing_number'],
      ],
      [
        'ACH, an IBAN, a short account number and no account type',
        {
          type: 'ACH',
          routing_number: '021000021',
          account_number: '12',
          iban: 'DE89370400440532013000',
        },
        ['/body/iban', '/body/account_number', '/body/account_type'],
      ],
      [
        'DOMESTIC_WIRE, a chain',
        {
          type: 'DOMESTIC_WIRE',
          routing_number: '021000021',
          account_number: '1234567',
          chain: 'tron',
        },
        ['/body/chain'],
      ],
      [
        'CRYPTO_EXTERNAL, a Bitcoin address with a typo',
        {
          type: 'CRYPTO_EXTERNAL',
          chain: 'bitcoin',
          address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
        },
        ['/body/address'],
      ],
      [
        'CRYPTO_EXTERNAL, an Ethereum address on Solana',
        { type: 'CRYPTO_EXTERNAL', chain: 'solana', address: EVM },
        ['/body/address'],
      ],
      [
        'CRYPTO_INTERNAL, no wallet but an IBAN',
        { type: 'CRYPTO_INTERNAL', iban: 'DE89370400440532013000' },
        ['/body/iban', '/body/wallet_uuid'],
      ],
      [
        'CRYPTO_INTERNAL, a wallet that does not exist',
        { type: 'CRYPTO_INTERNAL', wallet_uuid: NO_SUCH_ID },
        ['/body/wallet_uuid'],
      ],
    ]

    it.each(invalid)(
      'refuses %s: 422 DESTINATION_INVALID naming every field',
      async (_name, body, fields) => {
        const { pair, path } = await book()
        const problem = expectProblem(
          await call(pair, 'POST', `${path}/destinations`, body),
          422,
          'DESTINATION_INVALID',
        )
        expect(errorFields(problem)).toEqual(fields)
        expect(
          (await call(pair, 'GET', `${path}/destinations`)).json<DestinationList>().total,
        ).toBe(0)
      },
    )

    it('an unknown rail or a malformed field is the schema’s 422', async () => {
      const { pair, path } = await book()
      expectProblem(
        await call(pair, 'POST', `${path}/destinations`, { type: 'PAYPAL', iban: 'x' }),
        422,
        'VALIDATION_FAILED',
      )
      expectProblem(
        await call(pair, 'POST', `${path}/destinations`, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: 'x',
        }),
        422,
        'VALIDATION_FAILED',
      )
    })

    it('an internal destination is any wallet of the tenant but the one the counterparty is paid from', async () => {
      const { pair, wallet, path } = await book()
      const ownOther = await createWallet(app, pair.access_token)
      const someoneElse = await createWallet(app, (await signUp(app)).access_token)

      for (const target of [ownOther.uuid, someoneElse.uuid]) {
        const created = await createDestination(pair, path, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: target,
        })
        expect(created).toMatchObject({ wallet_uuid: target, iban: null, chain: null })
      }
      const self = expectProblem(
        await call(pair, 'POST', `${path}/destinations`, {
          type: 'CRYPTO_INTERNAL',
          wallet_uuid: wallet,
        }),
        422,
        'DESTINATION_INVALID',
      )
      expect(self.errors).toEqual([
        { field: '/body/wallet_uuid', message: 'is the wallet this counterparty is paid from' },
      ])
    })

    it('the list filters by rail and pages oldest first; the counterparty counts them', async () => {
      const { pair, path } = await book()
      const made: Destination[] = []
      for (const body of [
        { type: 'SEPA', iban: 'DE89370400440532013000' },
        { type: 'CRYPTO_EXTERNAL', chain: 'bitcoin', address: BTC },
        { type: 'SEPA', iban: 'GB29NWBK60161331926819' },
      ]) {
        made.push(await createDestination(pair, path, body))
      }
      const list = async (query: string) =>
        (await call(pair, 'GET', `${path}/destinations${query}`)).json<DestinationList>()

      expect((await list('')).data.map((d) => d.counterparty_destination_id)).toEqual(
        made.map((d) => d.counterparty_destination_id),
      )
      const sepa = await list('?type=SEPA&limit=1')
      expect(sepa).toMatchObject({ total: 2, limit: 1, is_last_page: false })
      expect(sepa.data[0]?.iban).toBe('DE89370400440532013000')
      expect((await list('?type=SEPA&limit=1&offset=1')).data[0]?.iban).toBe(
        'GB29NWBK60161331926819',
      )
      expect((await list('?type=ACH')).total).toBe(0)
      expect((await call(pair, 'GET', path)).json<Counterparty>().destinations_count).toBe(3)
      const [listed] = (
        await call(pair, 'GET', path.slice(0, path.lastIndexOf('/')))
      ).json<CounterpartyList>().data
      expect(listed?.destinations_count).toBe(3)
    })

    it('PATCH re-checks the merged destination and cannot change the rail', async () => {
      const { pair, path } = await book()
      const swift = await createDestination(pair, path, {
        type: 'SWIFT',
        bic: 'DEUTDEFF',
        account_number: '0532013000',
        bank_country: 'DE',
      })
      const url = `${path}/destinations/${swift.counterparty_destination_id}`

      const moved = expectProblem(
        await call(pair, 'PATCH', url, { bic: 'NWBKGB2L' }),
        422,
        'DESTINATION_INVALID',
      )
      expect(errorFields(moved)).toEqual(['/body/bank_country'])
      const both = await call(pair, 'PATCH', url, {
        bic: 'nwbkgb2l',
        bank_country: 'GB',
        label: 'UK',
      })
      expect(both.statusCode, both.body).toBe(200)
      expect(both.json<Destination>()).toMatchObject({
        bic: 'NWBKGB2L',
        bank_country: 'GB',
        label: 'UK',
        account_number: '0532013000',
      })
      expectProblem(await call(pair, 'PATCH', url, { type: 'SEPA' }), 422, 'VALIDATION_FAILED')
      const foreign = expectProblem(
        await call(pair, 'PATCH', url, { chain: 'bitcoin' }),
        422,
        'DESTINATION_INVALID',
      )
      expect(errorFields(foreign)).toEqual(['/body/chain'])
      expect((await call(pair, 'PATCH', url, { label: null })).json<Destination>().label).toBeNull()
      expectProblem(
        await call(pair, 'PATCH', `${path}/destinations/${NO_SUCH_ID}`, { label: 'x' }),
        404,
        'DESTINATION_NOT_FOUND',
      )
    })

    /**
     * An order row paying `destination`, straight in the database (the orders
     * area places real ones); `db` may be a transaction, then `userId` is needed.
     */
    async function orderPaying(
      wallet: string,
      destination: Destination,
      status: OrderStatus,
      db: Kysely<DB> | Transaction<DB> = app.db,
      userId?: string,
    ) {
      userId ??= await userIdOf(wallet)
      const target: OrderTarget = {
        kind: 'counterparty',
        wallet_uuid: null,
        counterparty_account_id: destination.counterparty_account_id,
        counterparty_destination_id: destination.counterparty_destination_id,
        destination_type: destination.type,
        fiat_account_id: null,
        chain: null,
        address: null,
        display: destination.display,
      }
      const priced = {
        tenant_id: DEMO_TENANT_ID,
        user_id: userId,
        wallet_id: wallet,
        order_type: 'WITHDRAWAL_FIAT_SEPA' as const,
        from_currency_uuid: EUR,
        to_currency_uuid: EUR,
        amount_from_minor: '1000',
        amount_to_minor: '1000',
        rate: '1',
        fees: '[]',
        total_minor: '1000',
        target: JSON.stringify(target),
      }
      const quoteId = uuidv7()
      const orderId = uuidv7()
      await db
        .insertInto('orders')
        .values({
          id: orderId,
          ...priced,
          status,
          quote_id: quoteId,
          quote_hash: quoteId,
          request_id: `quote:${quoteId}`,
          request_hash: 'test',
          counterparty_destination_id: destination.counterparty_destination_id,
        })
        .execute()
      return (next: OrderStatus) =>
        app.db.updateTable('orders').set({ status: next }).where('id', '=', orderId).execute()
    }

    it('a destination an open order pays cannot be deleted (409) nor re-pointed; once the order ends it can', async () => {
      const { pair, wallet, path } = await book()
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const url = `${path}/destinations/${sepa.counterparty_destination_id}`
      const setStatus = await orderPaying(wallet, sepa, 'NEW')

      expectProblem(await call(pair, 'DELETE', url), 409, 'DESTINATION_IN_USE')
      await setStatus('PENDING')
      expectProblem(await call(pair, 'DELETE', url), 409, 'DESTINATION_IN_USE')
      expectProblem(
        await call(pair, 'PATCH', url, { iban: 'FR1420041010050500013M02606' }),
        409,
        'DESTINATION_IN_USE',
      )
      const relabelled = await call(pair, 'PATCH', url, { label: 'Landlord' })
      expect(relabelled.statusCode, relabelled.body).toBe(200)
      expect(relabelled.json<Destination>().iban).toBe('DE89370400440532013000')

      await setStatus('COMPLETE')
      const deleted = await call(pair, 'DELETE', url)
      expect(deleted.statusCode, deleted.body).toBe(204)
      expect(deleted.body).toBe('')

      expectProblem(await call(pair, 'GET', url), 404, 'DESTINATION_NOT_FOUND')
      expectProblem(await call(pair, 'DELETE', url), 404, 'DESTINATION_NOT_FOUND')
      expect((await call(pair, 'GET', `${path}/destinations`)).json<DestinationList>().total).toBe(
        0,
      )
      expect((await call(pair, 'GET', path)).json<Counterparty>().destinations_count).toBe(0)
      // The completed order still names what it paid.
      const row = await app.db
        .selectFrom('counterparty_destinations')
        .select(['iban', 'deleted_at'])
        .where('id', '=', sepa.counterparty_destination_id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ iban: 'DE89370400440532013000', deleted_at: expect.any(Date) })
    })

    it('a DELETE racing an order being placed on the destination waits for it, then answers 409', async () => {
      const { pair, wallet, path } = await book()
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const userId = await userIdOf(wallet)
      let commit!: () => void
      const held = new Promise<void>((resolve) => {
        commit = resolve
      })
      let locked!: () => void
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve
      })
      // What placing an order does: resolve the destination with its lock, then insert the order.
      const placing = app.db.transaction().execute(async (trx) => {
        const found = await findDestinationForWallet(trx, {
          tenantId: DEMO_TENANT_ID,
          userId,
          destinationId: sepa.counterparty_destination_id,
          lock: true,
        })
        expect(found).toBeDefined()
        locked()
        // The order row's own foreign key locks the destination too, but only
        // from its insert on: the share lock covers the time before (pricing, holds).
        await held
        await orderPaying(wallet, sepa, 'NEW', trx, userId)
      })
      await lockTaken
      const deleting = call(
        pair,
        'DELETE',
        `${path}/destinations/${sepa.counterparty_destination_id}`,
      )
      // Long enough for the DELETE to reach the lock (PostgreSQL) or the connection queue (PGlite).
      await new Promise((resolve) => setTimeout(resolve, 200))
      commit()
      await placing
      expectProblem(await deleting, 409, 'DESTINATION_IN_USE')
    })

    it('a destination no order pays is deleted at once', async () => {
      const { pair, path } = await book()
      const crypto = await createDestination(pair, path, {
        type: 'CRYPTO_EXTERNAL',
        chain: 'bitcoin',
        address: BTC,
      })
      const url = `${path}/destinations/${crypto.counterparty_destination_id}`
      expect((await call(pair, 'DELETE', url)).statusCode).toBe(204)
      expectProblem(await call(pair, 'GET', url), 404, 'DESTINATION_NOT_FOUND')
    })

    it('findDestinationForWallet resolves the user’s live destination with its counterparty’s name', async () => {
      const { pair, wallet, path, counterparty } = await book(acme)
      const sepa = await createDestination(pair, path, {
        type: 'SEPA',
        iban: 'DE89370400440532013000',
      })
      const lookup = {
        tenantId: DEMO_TENANT_ID,
        userId: await userIdOf(wallet),
        destinationId: sepa.counterparty_destination_id,
      }

      expect(await findDestinationForWallet(app.db, lookup)).toEqual({
        ...sepa,
        counterparty_name: 'Acme GmbH',
        wallet_id: counterparty.wallet_id,
      })
      expect(await findDestinationForWallet(app.db, { ...lookup, walletId: wallet })).toBeDefined()
      const locked = await app.db
        .transaction()
        .execute((trx) => findDestinationForWallet(trx, { ...lookup, lock: true }))
      expect(locked?.display).toBe('DE89 … 3000')

      const stranger = await createWallet(app, (await signUp(app)).access_token)
      const strangerId = await userIdOf(stranger.uuid)
      expect(
        await findDestinationForWallet(app.db, { ...lookup, userId: strangerId }),
      ).toBeUndefined()
      expect(
        await findDestinationForWallet(app.db, { ...lookup, walletId: NO_SUCH_ID }),
      ).toBeUndefined()
      expect(
        await findDestinationForWallet(app.db, { ...lookup, tenantId: NO_SUCH_ID }),
      ).toBeUndefined()

      await call(pair, 'DELETE', `${path}/destinations/${sepa.counterparty_destination_id}`)
      expect(await findDestinationForWallet(app.db, lookup)).toBeUndefined()
    })
  })
})

import { describe, expect, it } from 'vitest'
import type { Counterparty, CounterpartyList } from '../../../contract/counterparties.ts'
import {
  bearer,
  createTenant,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import {
  acme,
  anna,
  counterpartiesApp,
  type Method,
  NO_SUCH_ID,
} from './counterparties-test-support.ts'

describeServer('counterparties', () => {
  const { app, call, owner, createCounterparty, createDestination, book, errorFields } =
    counterpartiesApp()

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
      const stranger = await signUp(app(), { stepUp: true })
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
      const other = await createWallet(app(), pair.access_token)
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
      const tenant = await createTenant(app())
      const theirHeaders = headers({ 'x-tenant-id': tenant })
      const theirs = await signUp(app(), { stepUp: true, headers: theirHeaders })
      const theirWallet = (
        await app().inject({
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
})

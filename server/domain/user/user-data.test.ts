import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Address, User, UserData, UserDataPatch } from '../../../contract/user.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  getUser,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { TenantService } from '../tenants/service.ts'

const address = (overrides: Partial<Address> = {}): Address => ({
  country: 'GB',
  city: 'London',
  line1: '12 Baker Street',
  line2: 'Flat B',
  postal_code: 'NW1 6XE',
  state: null,
  ...overrides,
})

/** A complete, valid profile change; tests override what they are about. */
const profile = (overrides: UserDataPatch = {}): UserDataPatch => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-12-10',
  language: 'en',
  address: address(),
  ...overrides,
})

describeServer('the signed-in user’s profile', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const getUserData = (accessToken: string) =>
    app.inject({
      method: 'GET',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(accessToken)),
    })
  const patchUserData = (accessToken: string, payload?: unknown) =>
    app.inject({
      method: 'PATCH',
      url: '/api/v2/user/user-data',
      headers: headers(bearer(accessToken)),
      ...(payload !== undefined && { payload: payload as object }),
    })

  it('GET /user answers the account: id, e-mail, phone, Telegram id, KYC status, creation time', async () => {
    const email = uniqueEmail()
    const pair = await signUp(app, { email, kyc: false })

    const user = (await getUser(app, pair.access_token)).json<User>()

    expect(user).toEqual({
      id: expect.any(String),
      email,
      phone: null,
      telegram_id: null,
      kyc_status: 'UNVERIFIED',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    })
  })

  it('a new account’s user data is empty but complete', async () => {
    const pair = await signUp(app)

    const response = await getUserData(pair.access_token)

    expect(response.statusCode).toBe(200)
    expect(response.json<UserData>()).toEqual({
      first_name: null,
      last_name: null,
      date_of_birth: null,
      language: null,
      address: null,
      username: null,
      photo_url: null,
      is_premium: false,
      people_discoverable: false,
      updated_at: expect.any(String),
    })
  })

  it('a full change answers 200 with the new user data, and GET shows the same', async () => {
    const pair = await signUp(app)
    const before = (await getUserData(pair.access_token)).json<UserData>()

    const response = await patchUserData(pair.access_token, profile())

    expect(response.statusCode, response.body).toBe(200)
    const after = response.json<UserData>()
    expect(after).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      language: 'en',
      address: address(),
    })
    expect(new Date(after.updated_at).getTime()).toBeGreaterThan(
      new Date(before.updated_at).getTime(),
    )
    expect((await getUserData(pair.access_token)).json<UserData>()).toEqual(after)
  })

  it('only the fields sent change', async () => {
    const pair = await signUp(app)
    await patchUserData(pair.access_token, profile())

    const response = await patchUserData(pair.access_token, { last_name: 'King' })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<UserData>()).toMatchObject({
      first_name: 'Ada',
      last_name: 'King',
      date_of_birth: '1990-12-10',
      language: 'en',
      address: address(),
    })
  })

  it('null clears a field and leaves the others', async () => {
    const pair = await signUp(app)
    await patchUserData(pair.access_token, profile())

    const response = await patchUserData(pair.access_token, {
      first_name: null,
      address: null,
      date_of_birth: null,
    })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<UserData>()).toMatchObject({
      first_name: null,
      last_name: 'Lovelace',
      date_of_birth: null,
      address: null,
      language: 'en',
    })
  })

  it('names are stored trimmed', async () => {
    const pair = await signUp(app)

    const response = await patchUserData(pair.access_token, { first_name: '  Grace  ' })

    expect(response.json<UserData>().first_name).toBe('Grace')
  })

  it('one user’s change never touches another user’s data', async () => {
    const mine = await signUp(app)
    const theirs = await signUp(app)
    await patchUserData(theirs.access_token, profile({ first_name: 'Theirs' }))

    await patchUserData(mine.access_token, profile({ first_name: 'Mine' }))

    expect((await getUserData(theirs.access_token)).json<UserData>().first_name).toBe('Theirs')
  })

  const invalid: Array<[string, UserDataPatch, string]> = [
    ['a birth date in the future', { date_of_birth: '2999-01-01' }, '/body/date_of_birth'],
    ['a person younger than 18', { date_of_birth: youngerThan18() }, '/body/date_of_birth'],
    ['a person older than 120', { date_of_birth: '1890-01-01' }, '/body/date_of_birth'],
    ['an unknown country', { address: address({ country: 'ZZ' }) }, '/body/address/country'],
    ['a blank first name', { first_name: '   ' }, '/body/first_name'],
    ['a blank city', { address: address({ city: '  ' }) }, '/body/address/city'],
  ]

  it.each(invalid)('%s answers 422 VALIDATION_FAILED naming %s', async (_name, patch, field) => {
    const pair = await signUp(app)

    const problem = expectProblem(
      await patchUserData(pair.access_token, patch),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors).toEqual([{ field, message: expect.any(String) }])
  })

  it('every bad field is named in one answer, and nothing is changed', async () => {
    const pair = await signUp(app)
    await patchUserData(pair.access_token, profile())

    const problem = expectProblem(
      await patchUserData(pair.access_token, {
        first_name: 'Changed',
        date_of_birth: '2999-01-01',
        address: address({ country: 'ZZ' }),
      }),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors?.map((error) => error.field)).toEqual([
      '/body/date_of_birth',
      '/body/address/country',
    ])
    expect((await getUserData(pair.access_token)).json<UserData>().first_name).toBe('Ada')
  })

  const malformed: Array<[string, unknown, string]> = [
    ['an unknown field', { first_name: 'Ada', nickname: 'ada' }, '/body/nickname'],
    ['a date that is no date', { date_of_birth: '1990-02-30' }, '/body/date_of_birth'],
    ['a lower-case country code', { address: address({ country: 'gb' }) }, '/body/address/country'],
    ['a language the app does not speak', { language: 'fr' }, '/body/language'],
    [
      'an address missing its city',
      { address: { ...address(), city: undefined } },
      '/body/address/city',
    ],
  ]

  it.each(malformed)('%s answers 422 VALIDATION_FAILED naming %s', async (_name, body, field) => {
    const pair = await signUp(app)

    const problem = expectProblem(
      await patchUserData(pair.access_token, body),
      422,
      'VALIDATION_FAILED',
    )

    expect(problem.errors?.map((error) => error.field)).toContain(field)
  })

  it('an empty object answers 422: a change must change something', async () => {
    const pair = await signUp(app)

    expectProblem(await patchUserData(pair.access_token, {}), 422, 'VALIDATION_FAILED')
  })

  it('no body at all answers 422', async () => {
    const pair = await signUp(app)

    expectProblem(await patchUserData(pair.access_token), 422, 'VALIDATION_FAILED')
  })

  it('without a session the profile answers 401', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/v2/user/user-data',
      headers: headers(),
      payload: { first_name: 'Ada' },
    })

    expectProblem(response, 401, 'UNAUTHORIZED')
  })

  /** A person signed up in a new tenant with these settings, and a PATCH in that tenant. */
  const inTenant = async (settings: Record<string, unknown>) => {
    const tenants = new TenantService(app.db)
    const tenantId = (await tenants.create({ name: 'Countries', ...settings })).id
    const own = { 'x-tenant-id': tenantId }
    const { access_token } = await signUp(app, { headers: headers(own) })
    const auth = headers({ ...own, ...bearer(access_token) })
    return {
      narrow: (supported_countries: string[]) => tenants.update(tenantId, { supported_countries }),
      patch: (payload: UserDataPatch) =>
        app.inject({
          method: 'PATCH',
          url: '/api/v2/user/user-data',
          headers: auth,
          payload,
        }),
      get: async () =>
        (
          await app.inject({ method: 'GET', url: '/api/v2/user/user-data', headers: auth })
        ).json<UserData>(),
    }
  }

  it('an address in a country the tenant serves is saved', async () => {
    const person = await inTenant({ supported_countries: ['GB', 'FR'] })

    const response = await person.patch({ address: address({ country: 'FR' }) })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<UserData>().address?.country).toBe('FR')
  })

  it('a country the tenant does not serve answers 422 COUNTRY_NOT_SUPPORTED on the field, and nothing changes', async () => {
    const person = await inTenant({ supported_countries: ['GB', 'FR'] })
    await person.patch({ address: address({ country: 'GB' }) })

    const problem = expectProblem(
      await person.patch({ first_name: 'Changed', address: address({ country: 'US' }) }),
      422,
      'COUNTRY_NOT_SUPPORTED',
    )

    expect(problem.errors).toEqual([{ field: '/body/address/country', message: 'One of: FR, GB.' }])
    expect(await person.get()).toMatchObject({ first_name: null, address: { country: 'GB' } })
  })

  it('the saved country is still accepted after the tenant stops serving it; another is not', async () => {
    const person = await inTenant({ supported_countries: ['GB', 'FR'] })
    await person.patch({ address: address({ country: 'FR' }) })
    await person.narrow(['GB'])

    const resent = await person.patch({ address: address({ country: 'FR', line1: '3 Rue Neuve' }) })

    expect(resent.statusCode, resent.body).toBe(200)
    expect(resent.json<UserData>().address).toMatchObject({ country: 'FR', line1: '3 Rue Neuve' })
    expectProblem(
      await person.patch({ address: address({ country: 'US' }) }),
      422,
      'COUNTRY_NOT_SUPPORTED',
    )
  })

  it('a tenant without a country list takes every known country', async () => {
    const person = await inTenant({ supported_countries: null })

    const response = await person.patch({ address: address({ country: 'JP' }) })

    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<UserData>().address?.country).toBe('JP')
  })
})

/** A birth date that makes the person 17 today, whatever day the test runs. */
function youngerThan18(): string {
  const date = new Date()
  date.setUTCFullYear(date.getUTCFullYear() - 17)
  return date.toISOString().slice(0, 10)
}

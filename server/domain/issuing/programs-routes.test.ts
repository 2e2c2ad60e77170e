import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { CardProgramList } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTenant,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { defaultProgramId, ensureDefaultPrograms } from './default-programs.ts'

const EUR = 'fc3b2351-726b-4cca-abda-4cfdcf917b0b'
const USD = '23a118db-510b-4942-ae1f-19d4bbe14324'

describeServer('card programs', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  /** v1 takes the raw access token. */
  const programs = (pair: TokenPair, query = '', tenantId = DEMO_TENANT_ID) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/issuing/config/programs${query}`,
      headers: headers({ authorization: pair.access_token, 'x-tenant-id': tenantId }),
    })

  it('the demo tenant offers its programs, active and archived, in its order, with fees', async () => {
    const pair = await signUp(app)
    const response = await programs(pair)
    expect(response.statusCode, response.body).toBe(200)
    const list = response.json<CardProgramList>()
    expect(list).toMatchObject({ total: 4, limit: 10, offset: 0, is_last_page: true })
    expect(
      list.data.map((p) => `${p.name} ${p.status} ${p.currency} ${p.sub_account_type}`),
    ).toEqual([
      'Virtual EUR prepaid ACTIVE EUR prepaid',
      'EUR balance account ACTIVE EUR balance',
      'USD balance account ACTIVE USD balance',
      'Classic EUR prepaid ARCHIVED EUR prepaid',
    ])
    expect(list.data[0]).toEqual({
      id: defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'),
      name: 'Virtual EUR prepaid',
      status: 'ACTIVE',
      currency_uuid: EUR,
      currency: 'EUR',
      form_factors: ['VIRTUAL'],
      card_type: 'DEBIT',
      sub_account_type: 'prepaid',
      fees: { issue: '0.00', monthly: '0.00', top_up_percent: '1' },
    })
    expect(list.data[2]).toMatchObject({
      currency_uuid: USD,
      form_factors: ['VIRTUAL', 'PHYSICAL'],
      fees: { issue: '5.00', monthly: '1.00', top_up_percent: '0.5' },
    })
  })

  it('the list pages', async () => {
    const pair = await signUp(app)
    const first = (await programs(pair, '?limit=3')).json<CardProgramList>()
    expect(first).toMatchObject({ total: 4, limit: 3, offset: 0, is_last_page: false })
    expect(first.data).toHaveLength(3)
    const last = (await programs(pair, '?limit=3&offset=3')).json<CardProgramList>()
    expect(last).toMatchObject({ total: 4, offset: 3, is_last_page: true })
    expect(last.data.map((p) => p.status)).toEqual(['ARCHIVED'])
    expectProblem(await programs(pair, '?limit=0'), 422, 'VALIDATION_FAILED')
  })

  it('a new tenant gets the same programs under ids of its own, and sees only its own', async () => {
    const tenantId = await createTenant(app)
    const pair = await signUp(app, { headers: headers({ 'x-tenant-id': tenantId }) })
    const list = (await programs(pair, '', tenantId)).json<CardProgramList>()
    expect(list.data.map((p) => p.name)).toEqual([
      'Virtual EUR prepaid',
      'EUR balance account',
      'USD balance account',
      'Classic EUR prepaid',
    ])
    expect(list.data[0]?.id).toBe(defaultProgramId(tenantId, 'eur-prepaid'))
    expect(list.data[0]?.id).not.toBe(defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid'))
  })

  it('ensuring the defaults again adds nothing and keeps what the tenant changed', async () => {
    const tenantId = await createTenant(app)
    const id = defaultProgramId(tenantId, 'eur-balance')
    await app.db
      .updateTable('card_programs')
      .set({ name: 'Our EUR account', status: 'ARCHIVED' })
      .where('id', '=', id)
      .execute()
    await Promise.all([
      ensureDefaultPrograms(app.db, tenantId),
      ensureDefaultPrograms(app.db, tenantId),
    ])
    const rows = await app.db
      .selectFrom('card_programs')
      .select(['id', 'name', 'status'])
      .where('tenant_id', '=', tenantId)
      .execute()
    expect(rows).toHaveLength(4)
    expect(rows.find((row) => row.id === id)).toEqual({
      id,
      name: 'Our EUR account',
      status: 'ARCHIVED',
    })
  })

  it('v1 takes the raw token: a Bearer one, or none, answers 401', async () => {
    const pair = await signUp(app)
    for (const authorization of [bearer(pair.access_token), {}]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/issuing/config/programs',
        headers: headers(authorization),
      })
      expectProblem(response, 401, 'UNAUTHORIZED')
    }
  })
})

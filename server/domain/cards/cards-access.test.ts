import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Card } from '../../../contract/cards.ts'
import type { ApiKeyRole, ApiKeyWithSecret } from '../../../contract/developer.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  createFiatAccount,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from '../../test-support.ts'
import { FIAT } from '../issuing/default-programs.ts'
import { credit } from '../ledger/ledger-test-support.ts'
import { ADDRESS, EUR_BALANCE, ledgerAccountOf, ok } from './card-test-support.ts'
import { CARD_DELIVERY_JOB } from './shipping.ts'

describeServer('cards: API-key roles, and the courier only in sandbox mode', () => {
  let sandbox: FastifyInstance
  let production: FastifyInstance

  beforeAll(async () => {
    sandbox = await createTestApp()
    production = await createTestApp({ SANDBOX: 'false' })
  })
  afterAll(async () => {
    await sandbox?.close()
    await production?.close()
  })

  const call = (
    app: FastifyInstance,
    auth: { token: string } | { key: string },
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: headers('key' in auth ? { 'x-api-key': auth.key } : { authorization: auth.token }),
      ...(payload !== undefined && { payload: payload as object }),
    })

  async function keyOf(
    app: FastifyInstance,
    token: string,
    role: ApiKeyRole,
    allowed_ips: string[] = [],
  ) {
    const created = ok<ApiKeyWithSecret>(
      await call(app, { token }, 'POST', '/developer/access/create', {
        name: role,
        role,
        allowed_ips,
      }),
      201,
    )
    return { key: created.secret }
  }

  /** A verified person with a wallet and a EUR balance account holding 100.00. */
  async function person(app: FastifyInstance) {
    // A production app has no sandbox KYC decision: the operator's approval is written directly.
    const pair = await signUp(app, { kyc: app === sandbox, stepUp: true })
    if (app === production) {
      const claims = await app.tokens.verifyAccess(pair.access_token)
      await app.db
        .updateTable('users')
        .set({ kyc_status: 'APPROVED' })
        .where('id', '=', claims!.userId)
        .execute()
    }
    const token = pair.access_token
    const wallet = await createWallet(app, token)
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    await credit(app.db, DEMO_TENANT_ID, await ledgerAccountOf(app, account.id), FIAT.EUR, 10_000n)
    return { token, wallet, account }
  }

  it('no API key reveals a card, gets its one-time codes or activates it: 403 SESSION_REQUIRED', async () => {
    const { token, account } = await person(sandbox)
    const card = ok<Card>(
      await call(sandbox, { token }, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account.id,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    for (const role of ['READ_ONLY', 'DEVELOPER', 'PRODUCTION'] as const) {
      const key = await keyOf(sandbox, token, role)
      const refused = [
        await call(sandbox, key, 'GET', `/vcards/cards/${card.id}/sensitive/otp`),
        await call(sandbox, key, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
          encrypted_key: 'AAAA',
        }),
        await call(sandbox, key, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv: '123' }),
        await call(sandbox, key, 'GET', `/issuing/cards/${card.id}/reveals`),
      ]
      for (const response of refused) expectProblem(response, 403, 'SESSION_REQUIRED')
      // Reading the card itself is what a key is for.
      expect(ok<Card>(await call(sandbox, key, 'GET', `/issuing/cards/${card.id}`)).last4).toBe(
        card.last4,
      )
    }
    // The signed-in owner still gets a code; nothing above was logged as a reveal.
    ok(await call(sandbox, { token }, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    const log = await sandbox.db
      .selectFrom('card_reveals')
      .select('kind')
      .where('card_id', '=', card.id)
      .execute()
    expect(log).toEqual([{ kind: 'OTP' }])
  })

  it('issuing is a payout: a PRODUCTION key bound to an IP allow-list only, on every deployment', async () => {
    const s = await person(sandbox)
    const onAccount = { fiat_account_id: s.account.id, form_factor: 'VIRTUAL' }
    for (const role of ['READ_ONLY', 'DEVELOPER'] as const) {
      const key = await keyOf(sandbox, s.token, role, ['127.0.0.1'])
      const refused = await call(sandbox, key, 'POST', '/issuing/cards/balance', onAccount)
      expect(expectProblem(refused, 403, 'API_KEY_ROLE_FORBIDDEN').required_role).toBe('PRODUCTION')
    }
    // A key usable from anywhere issues nothing, however high its role.
    const anywhere = await keyOf(sandbox, s.token, 'PRODUCTION')
    expectProblem(
      await call(sandbox, anywhere, 'POST', '/issuing/cards/balance', onAccount),
      403,
      'API_KEY_ALLOW_LIST_REQUIRED',
    )
    const bound = await keyOf(sandbox, s.token, 'PRODUCTION', ['127.0.0.1'])
    ok<Card>(await call(sandbox, bound, 'POST', '/issuing/cards/balance', onAccount), 201)
  })

  it('closing moves money: a READ_ONLY key is refused in sandbox mode, a DEVELOPER key in production mode', async () => {
    const s = await person(sandbox)
    const own = ok<Card>(
      await call(sandbox, { token: s.token }, 'POST', '/issuing/cards/balance', {
        fiat_account_id: s.account.id,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    const readOnly = await keyOf(sandbox, s.token, 'READ_ONLY')
    const closing = await call(sandbox, readOnly, 'DELETE', `/issuing/cards/${own.id}`)
    expect(expectProblem(closing, 403, 'API_KEY_ROLE_FORBIDDEN').required_role).toBe('DEVELOPER')

    const p = await person(production)
    const devKey = await keyOf(production, p.token, 'DEVELOPER')
    const byToken = ok<Card>(
      await call(production, { token: p.token }, 'POST', '/issuing/cards/balance', {
        fiat_account_id: p.account.id,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    const refused = await call(production, devKey, 'DELETE', `/issuing/cards/${byToken.id}`)
    expect(expectProblem(refused, 403, 'API_KEY_ROLE_FORBIDDEN').required_role).toBe('PRODUCTION')
    // Still one card, still open; a DEVELOPER key may do what moves no money.
    const cards = ok<{ total: number; data: Card[] }>(
      await call(production, devKey, 'GET', '/issuing/cards'),
    )
    expect(cards.data.map((card) => [card.id, card.status])).toEqual([[byToken.id, 'ACTIVE']])
    ok(await call(production, devKey, 'PATCH', `/issuing/cards/${byToken.id}/freeze`))
  })

  it('in production mode no courier runs: a physical card stays ORDERED and INACTIVE', async () => {
    const deliveryJobs = (app: FastifyInstance, cardId: string) =>
      app.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', CARD_DELIVERY_JOB)
        .where('payload', '@>', JSON.stringify({ card_id: cardId }) as never)
        .execute()
    const issuePhysical = async (app: FastifyInstance) => {
      const { token, account } = await person(app)
      const card = ok<Card>(
        await call(app, { token }, 'POST', '/issuing/cards/balance', {
          fiat_account_id: account.id,
          form_factor: 'PHYSICAL',
          delivery_address: ADDRESS,
        }),
        201,
      )
      return { token, card }
    }
    // Sandbox mode: the courier's job is queued with the card.
    const inSandbox = await issuePhysical(sandbox)
    expect(await deliveryJobs(sandbox, inSandbox.card.id)).toHaveLength(1)

    const { token, card } = await issuePhysical(production)
    expect(card).toMatchObject({ status: 'INACTIVE', delivery: { status: 'ORDERED' } })
    expect(await deliveryJobs(production, card.id)).toEqual([])
    await production.jobs.runDue({ now: new Date(Date.now() + 86_400_000), limit: 1_000 })
    const later = ok<Card>(await call(production, { token }, 'GET', `/issuing/cards/${card.id}`))
    expect(later).toMatchObject({ status: 'INACTIVE', delivery: { status: 'ORDERED' } })
    expectProblem(
      await call(production, { token }, 'PATCH', `/issuing/cards/${card.id}/activate`, {
        cvv: '123',
      }),
      409,
      'CARD_NOT_DELIVERED',
    )
  })
})

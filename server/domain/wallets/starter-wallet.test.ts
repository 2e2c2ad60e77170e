import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { WalletList } from '../../../contract/wallets.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  headers,
  signUp,
  uniqueEmail,
} from '../../test-support.ts'
import { launchUser, signedInitData, TEST_BOT_TOKEN } from '../auth/telegram-test-support.ts'
import { latestCode, sendEmailCode, verifyEmail } from '../otp/otp-test-support.ts'
import { TenantService } from '../tenants/service.ts'
import { openStarterWallet } from './starter-wallet.ts'

describeServer('the Personal wallet every account starts with', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })
  })
  afterAll(() => app?.close())

  const walletsOf = async (pair: TokenPair, on = headers()) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v2/wallets',
      headers: { ...on, ...bearer(pair.access_token) },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<WalletList>().data
  }

  it('a password sign-up opens one empty Personal wallet, usable at once', async () => {
    const pair = await signUp(app, { kyc: false })
    const wallets = await walletsOf(pair)
    expect(wallets).toEqual([
      { uuid: expect.any(String), type: 'personal', created_at: expect.any(String), balances: [] },
    ])
    // Its ledger accounts are open: a deposit address can be asked for straight away.
    const address = await app.inject({
      method: 'POST',
      url: `/api/v2/wallets/${wallets[0]!.uuid}/addresses/ethereum`,
      headers: headers(bearer(pair.access_token)),
      payload: {},
    })
    expect(address.statusCode, address.body).toBe(201)
  })

  it('an account made by a one-time code, or by Telegram, starts with one too', async () => {
    const email = uniqueEmail('otp-starter')
    await sendEmailCode(app, email)
    const byCode = await verifyEmail(app, email, await latestCode(app, email))
    expect(byCode.statusCode, byCode.body).toBe(200)
    expect((await walletsOf(byCode.json())).map((w) => w.type)).toEqual(['personal'])

    const byTelegram = await app.inject({
      method: 'POST',
      url: '/api/v2/auth/sign-up/telegram',
      headers: headers({ 'x-app-env': 'telegram' }),
      payload: { init_data: signedInitData({ user: launchUser() }), terms_accepted: true },
    })
    expect(byTelegram.statusCode, byTelegram.body).toBe(201)
    expect((await walletsOf(byTelegram.json())).map((w) => w.type)).toEqual(['personal'])
  })

  it('a tenant that offers no personal wallets opens none', async () => {
    const tenant = await new TenantService(app.db).create({
      name: 'Merchants Only',
      wallet_types: ['merchant'],
    })
    const on = headers({ 'x-tenant-id': tenant.id })
    const pair = await signUp(app, { headers: on, kyc: false })
    expect(await walletsOf(pair, on)).toEqual([])
  })

  it('is idempotent: a user who has a Personal wallet gets no second one', async () => {
    const pair = await signUp(app, { kyc: false })
    const [wallet] = await walletsOf(pair)
    const owner = await app.db
      .selectFrom('wallets')
      .select(['tenant_id as tenantId', 'user_id as userId'])
      .where('id', '=', wallet!.uuid)
      .executeTakeFirstOrThrow()
    const opened = await app.db.transaction().execute((trx) => openStarterWallet(trx, owner))
    expect(opened).toBeUndefined()
    expect(await walletsOf(pair)).toHaveLength(1)
  })
})

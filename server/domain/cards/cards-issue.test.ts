import type { LightMyRequestResponse } from 'fastify'
import { expect, it } from 'vitest'
import type { CardDetail, CardList } from '../../../contract/cards.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createFiatAccount,
  createWallet,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { defaultProgramId, FIAT } from '../issuing/default-programs.ts'
import { cardIssuingApp } from './card-issuing-fixtures.ts'
import { ADDRESS, EUR_BALANCE, ok, PREPAID } from './card-test-support.ts'
import { isLuhnValid } from './rules.ts'

const ARCHIVED = defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid-classic')

describeServer('card issuing: issuing, listing and detailing cards', () => {
  const { app, call, person, onAccount, revealed, standAlone, reveal, fund, expectNoLeaks } =
    cardIssuingApp()

  it('issues a stand-alone card with a prepaid fiat account of its own, numbered under the program’s BIN', async () => {
    const { token, wallet } = await person()
    const before = Date.now()
    const card = await standAlone(token, wallet.uuid, { nick_name: '  Travel  ' })
    const now = new Date(before)
    expect(card).toMatchObject({
      wallet_uuid: wallet.uuid,
      program_id: PREPAID,
      nick_name: 'Travel',
      status: 'ACTIVE',
      form_factor: 'VIRTUAL',
      card_type: 'DEBIT',
      currency: 'EUR',
      currency_uuid: FIAT.EUR,
      stand_alone: true,
      expiry_month: now.getUTCMonth() + 1,
      expiry_year: now.getUTCFullYear() + 3,
      fiat_account: { id: expect.any(String), type: 'prepaid' },
      limits: { per_transaction: '1000.00', daily: '2500.00', monthly: '10000.00' },
    })
    expect(card.last4).toMatch(/^[0-9]{4}$/)
    const account = ok<FiatAccount>(
      await app().inject({
        method: 'GET',
        url: `/api/v2/fiat-accounts/${wallet.uuid}/${card.fiat_account.id}`,
        headers: headers(bearer(token)),
      }),
    )
    expect(account).toMatchObject({
      program_id: PREPAID,
      sub_account_type: 'prepaid',
      balance: '0.00',
    })

    const { secrets } = await reveal(token, card.id)
    expect(secrets.data.pan).toMatch(/^40001200[0-9]{8}$/)
    expect(isLuhnValid(secrets.data.pan)).toBe(true)
    expect(secrets.data.pan.slice(-4)).toBe(card.last4)
  })

  it('refuses a stand-alone card on another user’s wallet, a balance or archived program, an unoffered form factor, bad limits', async () => {
    const { token, wallet } = await person()
    const other = await person()
    const create = (body: Record<string, unknown>) =>
      call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
        ...body,
      })
    const field = (response: LightMyRequestResponse, code: string) =>
      expectProblem(response, 422, code).errors?.map((error) => error.field)

    expect(field(await create({ wallet_uuid: other.wallet.uuid }), 'WALLET_NOT_FOUND')).toEqual([
      '/body/wallet_uuid',
    ])
    expect(field(await create({ program_id: EUR_BALANCE }), 'PROGRAM_NOT_PREPAID')).toEqual([
      '/body/program_id',
    ])
    expect(field(await create({ program_id: ARCHIVED }), 'PROGRAM_ARCHIVED')).toEqual([
      '/body/program_id',
    ])
    expect(field(await create({ program_id: crypto.randomUUID() }), 'PROGRAM_NOT_FOUND')).toEqual([
      '/body/program_id',
    ])
    expect(field(await create({ form_factor: 'PHYSICAL' }), 'FORM_FACTOR_UNAVAILABLE')).toEqual([
      '/body/form_factor',
    ])
    expect(
      field(
        await create({ limits: { per_transaction: '500', daily: '100', monthly: '50' } }),
        'INVALID_LIMITS',
      ),
    ).toEqual(['/body/limits/per_transaction', '/body/limits/daily'])
    expect(
      field(
        await create({ limits: { per_transaction: '1.001', daily: '100', monthly: '500' } }),
        'INVALID_LIMITS',
      ),
    ).toEqual(['/body/limits/per_transaction'])
    expect((await create({ nick_name: '' })).statusCode).toBe(422)
    // None of the refusals left a card or an account behind.
    const list = ok<CardList>(await call(token, 'GET', `/issuing/cards?wallet_uuid=${wallet.uuid}`))
    expect(list.total).toBe(0)
    const accounts = await app()
      .db.selectFrom('fiat_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .execute()
    expect(accounts).toEqual([])
  })

  it('issues cards on an existing fiat account, not on a stand-alone card’s nor another user’s', async () => {
    const { token, wallet } = await person()
    const account = await createFiatAccount(app(), token, wallet.uuid, EUR_BALANCE)
    // Two cards: the program's issue fee (5.00) twice.
    await fund(account.id, 1_000n)
    const physical = await onAccount(token, account.id, {
      form_factor: 'PHYSICAL',
      nick_name: 'Plastic',
      limits: { per_transaction: '50', daily: '200.5', monthly: '1000' },
      delivery_address: ADDRESS,
    })
    expect(physical).toMatchObject({
      stand_alone: false,
      form_factor: 'PHYSICAL',
      program_id: EUR_BALANCE,
      fiat_account: { id: account.id, type: 'balance' },
      limits: { per_transaction: '50.00', daily: '200.50', monthly: '1000.00' },
    })
    const second = await onAccount(token, account.id)
    expect(second.fiat_account.id).toBe(account.id)

    const lone = await standAlone(token, wallet.uuid)
    const refused = await call(token, 'POST', '/issuing/cards/balance', {
      fiat_account_id: lone.fiat_account.id,
      form_factor: 'VIRTUAL',
    })
    expectProblem(refused, 422, 'FIAT_ACCOUNT_UNAVAILABLE')

    const other = await person()
    const foreign = await call(other.token, 'POST', '/issuing/cards/balance', {
      fiat_account_id: account.id,
      form_factor: 'VIRTUAL',
    })
    expect(expectProblem(foreign, 422, 'FIAT_ACCOUNT_NOT_FOUND').errors).toEqual([
      { field: '/body/fiat_account_id', message: expect.any(String) },
    ])
  })

  it('lists the caller’s cards by wallet, sub-account type or fiat account, oldest first', async () => {
    const { token, wallet } = await person()
    const second = await createWallet(app(), token, 'business')
    const account = await createFiatAccount(app(), token, wallet.uuid, EUR_BALANCE)
    await fund(account.id, 500n)
    const a = await standAlone(token, wallet.uuid)
    const b = await onAccount(token, account.id)
    const c = await standAlone(token, second.uuid)
    const other = await person()
    await standAlone(other.token, other.wallet.uuid)

    const ids = async (query: string) =>
      ok<CardList>(await call(token, 'GET', `/issuing/cards${query}`)).data.map((card) => card.id)
    expect(await ids('')).toEqual([a.id, b.id, c.id])
    expect(await ids(`?wallet_uuid=${wallet.uuid}`)).toEqual([a.id, b.id])
    expect(await ids('?sub_account_type=prepaid')).toEqual([a.id, c.id])
    expect(await ids('?sub_account_type=balance')).toEqual([b.id])
    expect(await ids(`?fiat_account_id=${account.id}`)).toEqual([b.id])
    expect(await ids(`?wallet_uuid=${other.wallet.uuid}`)).toEqual([])
    const page = ok<CardList>(await call(token, 'GET', '/issuing/cards?limit=2&offset=2'))
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2, is_last_page: true })
    expect(page.data.map((card) => card.id)).toEqual([c.id])
    expect((await call(token, 'GET', '/issuing/cards?sub_account_type=credit')).statusCode).toBe(
      422,
    )
  })

  it('details a card with its full fiat account, keeping the card’s account type', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    await fund(card.fiat_account.id, 1234n)
    const detail = ok<CardDetail>(await call(token, 'GET', `/issuing/cards/${card.id}`))
    expect(detail).toMatchObject({
      id: card.id,
      last4: card.last4,
      fiat_account: {
        id: card.fiat_account.id,
        type: 'prepaid',
        sub_account_type: 'prepaid',
        wallet_uuid: wallet.uuid,
        program_name: 'Virtual EUR prepaid',
        balance: '12.34',
        status: 'ACTIVE',
      },
    })
  })

  it('keeps the number encrypted at rest: no answer, log line or database text holds a card number', async () => {
    // Runs last in the file: every card issued and revealed above is checked.
    expect(revealed.length).toBeGreaterThanOrEqual(1)
    await expectNoLeaks()
  })
})

import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Card } from '../../../contract/cards.ts'
import type { FiatAccount, FiatAccountList } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
  DEMO_PROGRAM as PROGRAM,
  signUp,
} from '../../test-support.ts'
import { credit, EUR } from '../ledger/ledger-test-support.ts'

describeServer('fiat accounts on v1, the same data as v2, with their cards', () => {
  let app: FastifyInstance

  beforeAll(async () => {
    app = await createTestApp()
  })
  afterAll(() => app?.close())

  const v1 = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: headers({ authorization: token }),
      ...(payload && { payload }),
    })
  const v2 = (token: string, url: string) =>
    app.inject({ method: 'GET', url: `/api/v2${url}`, headers: headers(bearer(token)) })

  const ok = <T>(response: LightMyRequestResponse, status = 200): T => {
    expect(response.statusCode, response.body).toBe(status)
    return response.json<T>()
  }

  async function person() {
    // Issuing a card needs the second look (server/route-policy.ts).
    const pair = await signUp(app, { stepUp: true })
    return { token: pair.access_token, wallet: await createWallet(app, pair.access_token) }
  }

  const openAccount = async (token: string, walletId: string, programId = PROGRAM.balance) =>
    ok<FiatAccount>(
      await v1(token, 'POST', '/fiat_accounts', { wallet_id: walletId, program_id: programId }),
      201,
    )

  /** A card on the account, after funding the program's issue fee (eur-balance: 5.00). */
  const cardOn = async (token: string, accountId: string) => {
    const { ledger_account_id } = await app.db
      .selectFrom('fiat_accounts')
      .select('ledger_account_id')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow()
    await credit(app.db, DEMO_TENANT_ID, ledger_account_id, EUR, 500n)
    return ok<Card>(
      await v1(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: accountId,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
  }

  it('opens an account with POST /fiat_accounts and answers it like v2; body references are 422', async () => {
    const { token, wallet } = await person()
    const account = await openAccount(token, wallet.uuid)
    expect(account).toMatchObject({
      wallet_uuid: wallet.uuid,
      program_id: PROGRAM.balance,
      balance: '0.00',
    })
    expect(account.cards).toBeUndefined()
    expect(ok(await v1(token, 'GET', `/fiat_accounts/${account.id}`))).toEqual(account)
    expect(ok(await v2(token, `/fiat-accounts/${wallet.uuid}/${account.id}`))).toEqual(account)

    const stranger = await person()
    const problem = expectProblem(
      await v1(stranger.token, 'POST', '/fiat_accounts', {
        wallet_id: wallet.uuid,
        program_id: PROGRAM.balance,
      }),
      422,
      'WALLET_NOT_FOUND',
    )
    expect(problem.errors).toEqual([{ field: '/body/wallet_id', message: 'No such wallet.' }])
    expectProblem(
      await v1(token, 'POST', '/fiat_accounts', {
        wallet_id: wallet.uuid,
        program_id: PROGRAM.archived,
      }),
      422,
      'PROGRAM_ARCHIVED',
    )
    expectProblem(
      await v1(stranger.token, 'GET', `/fiat_accounts/${account.id}`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await v1(stranger.token, 'GET', `/fiat_accounts/list/${wallet.uuid}`),
      404,
      'WALLET_NOT_FOUND',
    )
  })

  it('filters by card count (lt/gt), lists cards by last four with show_cards, the same on v1 and v2', async () => {
    const { token, wallet } = await person()
    const none = await openAccount(token, wallet.uuid)
    const one = await openAccount(token, wallet.uuid)
    const two = await openAccount(token, wallet.uuid)
    const closedToo = await openAccount(token, wallet.uuid)
    const c1 = await cardOn(token, one.id)
    const c2a = await cardOn(token, two.id)
    const c2b = await cardOn(token, two.id)
    const kept = await cardOn(token, closedToo.id)
    const gone = await cardOn(token, closedToo.id)
    ok(await v1(token, 'DELETE', `/issuing/cards/${gone.id}`))
    // A stand-alone card's own account has one card too.
    const alone = ok<Card>(
      await v1(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PROGRAM.prepaid,
        form_factor: 'VIRTUAL',
      }),
      201,
    )

    const single = ok<FiatAccountList>(
      await v1(
        token,
        'GET',
        `/fiat_accounts/list/${wallet.uuid}?lt_cards_limit=2&gt_cards_limit=0&show_cards=true`,
      ),
    )
    expect(single.data.map((a) => a.id)).toEqual([one.id, closedToo.id, alone.fiat_account.id])
    expect(single).toMatchObject({ total: 3, is_last_page: true })
    expect(single.data.map((a) => a.cards)).toEqual([
      [{ id: c1.id, last4: c1.last4, nick_name: null, status: 'ACTIVE', form_factor: 'VIRTUAL' }],
      [
        {
          id: kept.id,
          last4: kept.last4,
          nick_name: null,
          status: 'ACTIVE',
          form_factor: 'VIRTUAL',
        },
      ],
      [
        {
          id: alone.id,
          last4: alone.last4,
          nick_name: null,
          status: 'ACTIVE',
          form_factor: 'VIRTUAL',
        },
      ],
    ])
    // Only last four digits: no field of a listed card holds more digits.
    for (const card of single.data.flatMap((a) => a.cards ?? [])) {
      expect(Object.keys(card).sort()).toEqual([
        'form_factor',
        'id',
        'last4',
        'nick_name',
        'status',
      ])
    }

    const at = async (query: string) =>
      ok<FiatAccountList>(
        await v1(token, 'GET', `/fiat_accounts/list/${wallet.uuid}?${query}`),
      ).data.map((a) => a.id)
    expect(await at('gt_cards_limit=1')).toEqual([two.id])
    expect(await at('lt_cards_limit=1')).toEqual([none.id])
    expect(await at('gt_cards_limit=0')).toEqual([
      one.id,
      two.id,
      closedToo.id,
      alone.fiat_account.id,
    ])
    expect(c2a.id).not.toBe(c2b.id)

    // Parity: every query answers the same on both bases.
    for (const query of [
      'show_cards=true',
      'limit=2&offset=1',
      'lt_cards_limit=2&gt_cards_limit=0&show_cards=true',
      'gt_cards_limit=1&show_cards=true',
    ]) {
      const first = ok(await v1(token, 'GET', `/fiat_accounts/list/${wallet.uuid}?${query}`))
      const second = ok(await v2(token, `/fiat-accounts/${wallet.uuid}?${query}`))
      expect(second, query).toEqual(first)
    }
    const detail1 = ok<FiatAccount>(
      await v1(token, 'GET', `/fiat_accounts/${two.id}?show_cards=true`),
    )
    expect(detail1.cards?.map((c) => c.id)).toEqual([c2a.id, c2b.id])
    expect(ok(await v2(token, `/fiat-accounts/${wallet.uuid}/${two.id}?show_cards=true`))).toEqual(
      detail1,
    )
  })
})

import { expect, it } from 'vitest'
import type { CardTransactionList, Merchant } from '../../../contract/card-transactions.ts'
import type { Card } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { createWallet, describeServer, expectProblem, headers } from '../../test-support.ts'
import { ok, PREPAID } from '../cards/card-test-support.ts'
import { cardNetworkApp } from './card-network-fixtures.ts'
import { CardTransactionService } from './read-card-transactions.ts'

describeServer('card transactions: /api/v1/issuing/transactions and its CSV export', () => {
  const { app, call, cardholder, send, authorize } = cardNetworkApp()

  it('lists the owner’s card transactions newest first, by card, by account or all; others’ ids are 404', async () => {
    const { token, wallet, card } = await cardholder(50_000n)
    const second = ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
      }),
      201,
    )
    const a1 = await authorize(card.id, '10.00')
    const c1 = await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '10.00',
      authorization_id: a1.id,
    })
    const a2 = await authorize(card.id, '900.00') // declined: over the balance
    const b1 = await authorize(second.id, '1.00') // declined: nothing on that account

    const all = ok<CardTransactionList>(
      await call(token, 'GET', '/issuing/transactions/?new_scheme=true'),
    )
    expect(all.data.map((t) => t.id)).toEqual([b1.id, a2.id, c1.id, a1.id])
    expect(all).toMatchObject({ total: 4, limit: 10, offset: 0, is_last_page: true })

    const byCard = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions?card_id=${card.id}&limit=2&offset=1`),
    )
    expect(byCard.data.map((t) => t.id)).toEqual([c1.id, a1.id])
    expect(byCard).toMatchObject({ total: 3, is_last_page: true })
    const firstOfThree = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions?card_id=${card.id}&limit=2`),
    )
    expect(firstOfThree).toMatchObject({ is_last_page: false })
    expect(firstOfThree).not.toHaveProperty('total')
    expect(
      ok<CardTransactionList>(
        await call(
          token,
          'GET',
          `/issuing/transactions?card_id=${card.id}&limit=2&with_total=true`,
        ),
      ),
    ).toMatchObject({ total: 3, is_last_page: false })

    const byAccount = ok<CardTransactionList>(
      await call(token, 'GET', `/issuing/transactions/?fiat_account_id=${second.fiat_account.id}`),
    )
    expect(byAccount.data.map((t) => t.id)).toEqual([b1.id])

    const stranger = await cardholder(0n)
    const none = ok<CardTransactionList>(
      await call(stranger.token, 'GET', '/issuing/transactions/'),
    )
    expect(none.data).toEqual([])
    expectProblem(
      await call(stranger.token, 'GET', `/issuing/transactions/?card_id=${card.id}`),
      404,
      'CARD_NOT_FOUND',
    )
    expectProblem(
      await call(
        stranger.token,
        'GET',
        `/issuing/transactions/?fiat_account_id=${card.fiat_account.id}`,
      ),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
    expectProblem(
      await call(stranger.token, 'GET', `/fiat_accounts/${card.fiat_account.id}/transactions`),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )

    // The account's transactions on both bases: the same records.
    const v1 = ok<CardTransactionList>(
      await call(token, 'GET', `/fiat_accounts/${card.fiat_account.id}/transactions`),
    )
    const v2 = ok<CardTransactionList>(
      await app().inject({
        method: 'GET',
        url: `/api/v2/fiat-accounts/${wallet.uuid}/${card.fiat_account.id}/transactions`,
        headers: headers({ authorization: `Bearer ${token}` }),
      }),
    )
    expect(v1.data.map((t) => t.id)).toEqual([a2.id, c1.id, a1.id])
    expect(v2).toEqual(v1)
    const otherWallet = await createWallet(app(), token)
    expectProblem(
      await app().inject({
        method: 'GET',
        url: `/api/v2/fiat-accounts/${otherWallet.uuid}/${card.fiat_account.id}/transactions`,
        headers: headers({ authorization: `Bearer ${token}` }),
      }),
      404,
      'FIAT_ACCOUNT_NOT_FOUND',
    )
  })

  it('exports a card’s transactions as streamed CSV, newest first, formula-safe', async () => {
    const { token, card } = await cardholder(50_000n)
    const evil: Merchant = {
      name: '=HYPERLINK("http://x","pay")',
      mcc: '5999',
      city: '+Town, "Old"',
      country: 'GB',
    }
    const a1 = await authorize(card.id, '12.00', evil)
    const c1 = await send({
      card_id: card.id,
      type: 'CLEARING',
      amount: '11.50',
      authorization_id: a1.id,
    })
    const a2 = await authorize(card.id, '2000.00')

    const response = await call(token, 'GET', `/issuing/transactions/csv?card_id=${card.id}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="card-transactions-${card.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`,
      ),
    )
    const lines = response.body.split('\r\n')
    expect(lines.pop()).toBe('')
    expect(lines[0]).toBe(
      'id,created_at,card_last4,type,status,amount,currency,merchant_name,merchant_mcc,' +
        'merchant_city,merchant_country,decline_reason,exceeded_limit,authorization_id',
    )
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([a2.id, c1.id, a1.id])
    expect(lines[1]).toContain(
      ',DECLINED,2000.00,EUR,Corner Shop,5411,Lisbon,PT,LIMIT_EXCEEDED,per_transaction,',
    )
    expect(lines[2]).toContain(
      `,CLEARING,SETTLED,11.50,EUR,"'=HYPERLINK(""http://x"",""pay"")",5999,"'+Town, ""Old""",GB,,,${a1.id}`,
    )

    // Keyset pages of any size give the same rows.
    const chunks: string[] = []
    const service = new CardTransactionService(app().db)
    for await (const chunk of await service.exportCsv(
      { tenantId: DEMO_TENANT_ID, userId: await ownerOf(card.id) },
      card.id,
      1,
    ))
      chunks.push(chunk)
    expect(chunks.join('')).toBe(response.body)
    expect(chunks).toHaveLength(4) // the header, then one chunk per row

    const stranger = await cardholder(0n)
    expectProblem(
      await call(stranger.token, 'GET', `/issuing/transactions/csv?card_id=${card.id}`),
      404,
      'CARD_NOT_FOUND',
    )
  })

  async function ownerOf(cardId: string) {
    const row = await app()
      .db.selectFrom('cards')
      .select('user_id')
      .where('id', '=', cardId)
      .executeTakeFirstOrThrow()
    return row.user_id
  }
})

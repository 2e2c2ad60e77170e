import { expect, it } from 'vitest'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { Card, CardDetail, CardList } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { describeServer, expectProblem } from '../../test-support.ts'
import { balance } from '../ledger/ledger-test-support.ts'
import { cardDeliveryFeesApp, EUR, SHOP } from './card-delivery-fees-test-support.ts'
import { ADDRESS, ok, PREPAID } from './card-test-support.ts'
import { ACTIVATION_TRIES } from './rules.ts'

describeServer('cards: delivery and activation of a physical card', () => {
  const {
    app,
    keys,
    call,
    person,
    onAccount,
    ledgerOf,
    fundedAccount,
    cardCount,
    runJobs,
    network,
    expectNoLeaks,
  } = cardDeliveryFeesApp()
  /** The security code printed on a card: what its holder types to activate it. */
  const printed = (card: Card) => keys.cvvOf(app(), DEMO_TENANT_ID, card.id)
  /** A 3-digit code that is not the card's. */
  const otherThan = (cvv: string) => String((Number(cvv) + 1) % 1000).padStart(3, '0')

  it('a physical card needs a delivery address with a known country; a virtual one refuses it', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const physical = (extra: Record<string, unknown>) =>
      call(token, 'POST', '/issuing/cards/balance', {
        fiat_account_id: account.id,
        form_factor: 'PHYSICAL',
        ...extra,
      })

    const missing = expectProblem(await physical({}), 422, 'DELIVERY_ADDRESS_REQUIRED')
    expect(missing.errors).toEqual([
      { field: '/body/delivery_address', message: expect.any(String) },
    ])
    const unknown = expectProblem(
      await physical({ delivery_address: { ...ADDRESS, country: 'XX' } }),
      422,
      'INVALID_DELIVERY_ADDRESS',
    )
    expect(unknown.errors).toEqual([
      { field: '/body/delivery_address/country', message: expect.any(String) },
    ])
    for (const bad of [
      { ...ADDRESS, postal_code: '!!' },
      { ...ADDRESS, postal_code: '-1' },
      { ...ADDRESS, recipient_name: '   ' },
      { ...ADDRESS, line1: 'x'.repeat(101) },
      { ...ADDRESS, city: 'x'.repeat(61) },
      { ...ADDRESS, country: 'gb' },
      { ...ADDRESS, line2: 'a\nb' },
      { ...ADDRESS, floor: '3' },
    ]) {
      expect((await physical({ delivery_address: bad })).statusCode, JSON.stringify(bad)).toBe(422)
    }
    const virtual = expectProblem(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
        delivery_address: ADDRESS,
      }),
      422,
      'DELIVERY_ADDRESS_NOT_ALLOWED',
    )
    expect(virtual.errors).toEqual([
      { field: '/body/delivery_address', message: expect.any(String) },
    ])
    // None of the refusals made a card or took a fee.
    expect(await cardCount(token)).toBe(0)
    expect(await balance(app().db, await ledgerOf(account.id), EUR)).toBe(10_000n)
  })

  it('issues a physical card INACTIVE, delivery ORDERED; the courier ships and delivers it; the printed security code activates it', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const card = await onAccount(token, account.id, {
      form_factor: 'PHYSICAL',
      delivery_address: { ...ADDRESS, recipient_name: '  Ada Lovelace ', line2: ' ' },
    })
    expect(card).toMatchObject({
      status: 'INACTIVE',
      form_factor: 'PHYSICAL',
      delivery: { address: ADDRESS, status: 'ORDERED', updated_at: card.created_at },
    })
    const virtual = await onAccount(token, account.id)
    expect(virtual).toMatchObject({ status: 'ACTIVE', delivery: null })
    const detail = async () => ok<CardDetail>(await call(token, 'GET', `/issuing/cards/${card.id}`))
    expect((await detail()).delivery).toEqual(card.delivery)
    const listed = ok<CardList>(
      await call(token, 'GET', `/issuing/cards?fiat_account_id=${account.id}`),
    )
    expect(listed.data.map((c) => c.delivery?.status ?? null)).toEqual(['ORDERED', null])

    // Not yet activated: no secrets, no one-time code, and the network declines it.
    expect(
      expectProblem(
        await call(token, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
          encrypted_key: 'AAAA',
        }),
        409,
        'CARD_STATUS_CONFLICT',
      ).card_status,
    ).toBe('INACTIVE')
    expectProblem(
      await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`),
      409,
      'CARD_STATUS_CONFLICT',
    )
    const declined = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '1.00', merchant: SHOP }),
      201,
    )
    expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'CARD_INACTIVE' })

    const cvv = await printed(card)
    const activate = (code: string) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv: code })
    expect(expectProblem(await activate(cvv), 409, 'CARD_NOT_DELIVERED').detail).toContain(
      'ORDERED',
    )

    await runJobs()
    expect((await detail()).delivery?.status).toBe('SHIPPED')
    expect(expectProblem(await activate(cvv), 409, 'CARD_NOT_DELIVERED').detail).toContain(
      'SHIPPED',
    )
    await runJobs()
    const delivered = await detail()
    expect(delivered.delivery?.status).toBe('DELIVERED')
    expect(delivered.status).toBe('INACTIVE')
    expect(Date.parse(delivered.delivery!.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(card.delivery!.updated_at),
    )
    // The courier is done: a further run moves nothing.
    await runJobs()
    expect((await detail()).delivery).toEqual(delivered.delivery)

    expect(
      expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID').errors,
    ).toEqual([{ field: '/body/cvv', message: expect.any(String) }])
    // Nothing an answer of the API carries activates it: not the last four digits.
    for (const body of [{ last4: card.last4 }, { cvv: card.last4 }, { cvv: '1a3' }, {}]) {
      const refused = await call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, body)
      expect(refused.statusCode, JSON.stringify(body)).toBe(422)
    }
    expect(ok<Card>(await activate(cvv))).toMatchObject({
      status: 'ACTIVE',
      delivery: { status: 'DELIVERED' },
    })
    expect(expectProblem(await activate(cvv), 409, 'CARD_STATUS_CONFLICT').card_status).toBe(
      'ACTIVE',
    )
    // A virtual card is never activated: it is issued ACTIVE.
    expectProblem(
      await call(token, 'PATCH', `/issuing/cards/${virtual.id}/activate`, {
        cvv: await printed(virtual),
      }),
      409,
      'CARD_STATUS_CONFLICT',
    )
    const approved = ok<CardTransaction>(
      await network({ card_id: card.id, type: 'AUTHORIZATION', amount: '1.00', merchant: SHOP }),
      201,
    )
    expect(approved.status).toBe('APPROVED')
    ok(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))

    // Another user's card: 404 like a missing one.
    const other = await person()
    expectProblem(
      await call(other.token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv }),
      404,
      'CARD_NOT_FOUND',
    )
  })

  it('a closed card’s delivery stops where it is; wrong codes are counted in the database, then 429 for the hour', async () => {
    const { token, wallet } = await person()
    const account = await fundedAccount(token, wallet.uuid, 10_000n)
    const issue = () =>
      onAccount(token, account.id, { form_factor: 'PHYSICAL', delivery_address: ADDRESS })
    const closed = await issue()
    ok(await call(token, 'DELETE', `/issuing/cards/${closed.id}`))
    await runJobs()
    await runJobs()
    const after = ok<Card>(await call(token, 'GET', `/issuing/cards/${closed.id}`))
    expect(after).toMatchObject({ status: 'CLOSED', delivery: { status: 'ORDERED' } })
    expectProblem(
      await call(token, 'PATCH', `/issuing/cards/${closed.id}/activate`, {
        cvv: await printed(closed),
      }),
      409,
      'CARD_STATUS_CONFLICT',
    )

    const card = await issue()
    await runJobs()
    await runJobs()
    const cvv = await printed(card)
    const activate = (code: string) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/activate`, { cvv: code })
    for (let i = 0; i < ACTIVATION_TRIES; i++) {
      expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID')
    }
    // The count is on the card row: a restart or another replica sees it too.
    const counted = () =>
      app()
        .db.selectFrom('cards')
        .select(['activation_failures', 'activation_failed_since'])
        .where('id', '=', card.id)
        .executeTakeFirstOrThrow()
    expect((await counted()).activation_failures).toBe(ACTIVATION_TRIES)
    // Even the right code now waits for the hour to pass.
    const limited = await activate(cvv)
    expect(expectProblem(limited, 429, 'RATE_LIMITED').retry_after).toBeGreaterThan(3_500)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3_500)
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).status).toBe('INACTIVE')
    // An hour after the first wrong code the card takes tries again.
    const since = (await counted()).activation_failed_since!
    await app()
      .db.updateTable('cards')
      .set({ activation_failed_since: new Date(since.getTime() - 3_600_000) })
      .where('id', '=', card.id)
      .execute()
    expectProblem(await activate(otherThan(cvv)), 422, 'ACTIVATION_CODE_INVALID')
    expect((await counted()).activation_failures).toBe(1)
    expect(ok<Card>(await activate(cvv)).status).toBe('ACTIVE')
  })

  it('keeps card numbers out of every answer, log line and stored row (delivery, fees, creation keys)', async () => {
    // Runs last in the file: every card issued above is checked.
    await expectNoLeaks(40)
  })
})

import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import type { CardOtp } from '../../../contract/cards.ts'
import { captureLogs, createTestApp, describeServer, expectProblem } from '../../test-support.ts'
import { cardCalls, expectNoCardNumbers, ok, testCardKeys } from '../cards/card-test-support.ts'
import { ACTIVATION_TRIES, ACTIVATION_WINDOW_MS } from '../cards/rules.ts'
import { balance, EUR, expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { CardProcessor } from './card-network.ts'

const SHOP: Merchant = { name: 'Web Shop', mcc: '5942', city: 'Dublin', country: 'IE' }

/** Another six digits than `code`. */
const wrong = (code: string, by = 1) => String((Number(code) + by) % 1_000_000).padStart(6, '0')

describeServer('card transactions: the sandbox processor checks the 3-D Secure code', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  const logs = captureLogs()
  const { answers, call, fundedCard: cardholder } = cardCalls(() => app)

  beforeAll(async () => {
    app = await createTestApp(keys.env, { logStream: logs.stream })
  })
  afterAll(() => app?.close())

  const otp = async (token: string, cardId: string) =>
    ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${cardId}/sensitive/otp`))

  const network = async (body: Record<string, unknown>) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      headers: { 'content-type': 'application/json' },
      payload: { type: 'AUTHORIZATION', amount: '10.00', currency: 'EUR', merchant: SHOP, ...body },
    })
    answers.push(response)
    return response
  }

  /** An e-commerce authorisation of 10.00 carrying `code` (none: no 3-D Secure). */
  const authorize = async (cardId: string, code?: string, extra: Record<string, unknown> = {}) =>
    ok<CardTransaction>(
      await network({
        card_id: cardId,
        ...(code !== undefined && { three_ds_code: code }),
        ...extra,
      }),
      201,
    )

  const otpRows = (cardId: string) =>
    app.db
      .selectFrom('card_otps')
      .select(['expires_at', 'used_at'])
      .where('card_id', '=', cardId)
      .orderBy('expires_at')
      .execute()

  const failures = (cardId: string) =>
    app.db
      .selectFrom('cards')
      .select(['three_ds_failures', 'three_ds_failed_since'])
      .where('id', '=', cardId)
      .executeTakeFirstOrThrow()

  const declinedThreeDs = { status: 'DECLINED', decline_reason: 'THREE_DS_FAILED' }

  it('approves an authorisation carrying the card’s code and spends it: the same code again declines', async () => {
    const { token, card, spendable } = await cardholder()
    const { code } = await otp(token, card.id)

    const approved = await authorize(card.id, code)
    expect(approved).toMatchObject({ status: 'APPROVED', decline_reason: null, merchant: SHOP })
    const [row] = await otpRows(card.id)
    expect(row!.used_at).not.toBeNull()

    expect(await authorize(card.id, code)).toMatchObject({ ...declinedThreeDs, amount: '10.00' })
    // Only the first one held money; the decline is recorded and moved nothing.
    expect(await balance(app.db, spendable, EUR)).toBe(50_000n - 1_000n)
    const records = await app.db
      .selectFrom('card_transactions')
      .select(['status', 'decline_reason'])
      .where('card_id', '=', card.id)
      .where('type', '=', 'AUTHORIZATION')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    expect(records).toEqual([
      { status: 'APPROVED', decline_reason: null },
      { status: 'DECLINED', decline_reason: 'THREE_DS_FAILED' },
    ])
    await expectLedgerInvariants(app)
  })

  it('declines a wrong code, counts it, and leaves the right code to the cardholder; another card’s code is wrong here', async () => {
    const { token, card } = await cardholder()
    const other = await cardholder()
    // No code issued yet: whatever is typed is wrong.
    expect(await authorize(card.id, '000000')).toMatchObject(declinedThreeDs)
    const { code } = await otp(token, card.id)
    // The other card has a live code of its own, a different one.
    let theirs = await otp(other.token, other.card.id)
    while (theirs.code === code) theirs = await otp(other.token, other.card.id)

    expect(await authorize(card.id, wrong(code))).toMatchObject(declinedThreeDs)
    expect(await authorize(other.card.id, code)).toMatchObject(declinedThreeDs)
    expect(await authorize(card.id, theirs.code)).toMatchObject(declinedThreeDs)
    expect((await failures(card.id)).three_ds_failures).toBe(3)
    expect((await failures(other.card.id)).three_ds_failures).toBe(1)

    // The stored hash is keyed with its card: this card's hash, moved onto the
    // other card's row, does not let this card's code through there.
    const hashOf = async (cardId: string) =>
      (
        await app.db
          .selectFrom('card_otps')
          .select('code_hash')
          .where('card_id', '=', cardId)
          .executeTakeFirstOrThrow()
      ).code_hash
    const mine = await hashOf(card.id)
    const theirHash = await hashOf(other.card.id)
    const putHash = (codeHash: string) =>
      app.db
        .updateTable('card_otps')
        .set({ code_hash: codeHash })
        .where('card_id', '=', other.card.id)
        .execute()
    await putHash(mine)
    expect(await authorize(other.card.id, code)).toMatchObject(declinedThreeDs)
    await putHash(theirHash)
    expect((await failures(other.card.id)).three_ds_failures).toBe(2)
    expect((await otpRows(card.id))[0]!.used_at).toBeNull()
    expect((await otpRows(other.card.id))[0]!.used_at).toBeNull()

    // Each right code still passes on its own card, and wipes the count.
    expect((await authorize(card.id, code)).status).toBe('APPROVED')
    expect(await failures(card.id)).toEqual({ three_ds_failures: 0, three_ds_failed_since: null })
    expect((await authorize(other.card.id, theirs.code)).status).toBe('APPROVED')
    expect(await failures(other.card.id)).toEqual({
      three_ds_failures: 0,
      three_ds_failed_since: null,
    })
  })

  it('ties the code to the card whatever the case of the id it was asked with', async () => {
    const { token, card } = await cardholder()
    const { code } = await otp(token, card.id.toUpperCase())
    expect(await otpRows(card.id)).toHaveLength(1)
    expect(await authorize(card.id, code)).toMatchObject({
      status: 'APPROVED',
      decline_reason: null,
    })
    expect((await failures(card.id)).three_ds_failures).toBe(0)
    // Asked again with the upper-cased id, the earlier code is superseded as usual.
    const first = await otp(token, card.id.toUpperCase())
    const second = await otp(token, card.id)
    expect(await otpRows(card.id)).toHaveLength(1)
    if (first.code !== second.code) {
      expect(await authorize(card.id, first.code)).toMatchObject(declinedThreeDs)
    }
    expect((await authorize(card.id, second.code)).status).toBe('APPROVED')
  })

  it('takes only the newest code: an older one, though unexpired and unused, declines', async () => {
    const { token, card } = await cardholder()
    const older = await otp(token, card.id)
    const newer = await otp(token, card.id)
    // The older code is gone from the store, not just outranked.
    expect(await otpRows(card.id)).toHaveLength(1)
    if (older.code !== newer.code) {
      expect(await authorize(card.id, older.code)).toMatchObject(declinedThreeDs)
    }
    expect((await authorize(card.id, newer.code)).status).toBe('APPROVED')
  })

  it('declines an expired code, on the processor’s clock', async () => {
    const { token, card } = await cardholder()
    const processor = new CardProcessor(app.db, keys.crypto)
    const at = (code: string, now: Date) =>
      processor.process(
        {
          card_id: card.id,
          type: 'AUTHORIZATION',
          amount: '10.00',
          currency: 'EUR',
          merchant: SHOP,
          three_ds_code: code,
        },
        now,
      )
    const first = await otp(token, card.id)
    const expiry = new Date(first.expires_at)
    expect(await at(first.code, expiry)).toMatchObject(declinedThreeDs)
    expect((await otpRows(card.id))[0]!.used_at).toBeNull()

    const second = await otp(token, card.id)
    const lastMoment = new Date(Date.parse(second.expires_at) - 1)
    expect((await at(second.code, lastMoment)).status).toBe('APPROVED')
  })

  it(`after ${ACTIVATION_TRIES} wrong codes within the hour declines every code unchecked, until the hour ends`, async () => {
    const { token, card } = await cardholder()
    const { code } = await otp(token, card.id)
    for (let i = 1; i <= ACTIVATION_TRIES; i++) {
      expect(await authorize(card.id, wrong(code, i))).toMatchObject(declinedThreeDs)
    }
    // Locked: the right code declines too, is not spent, and nothing more is counted.
    expect(await authorize(card.id, code)).toMatchObject(declinedThreeDs)
    expect(await authorize(card.id, wrong(code))).toMatchObject(declinedThreeDs)
    expect((await otpRows(card.id))[0]!.used_at).toBeNull()
    const locked = await failures(card.id)
    expect(locked.three_ds_failures).toBe(ACTIVATION_TRIES)

    // The hour over (the count's window moved back rather than the clock on).
    await app.db
      .updateTable('cards')
      .set({
        three_ds_failed_since: new Date(
          locked.three_ds_failed_since!.getTime() - ACTIVATION_WINDOW_MS,
        ),
      })
      .where('id', '=', card.id)
      .execute()
    expect((await authorize(card.id, code)).status).toBe('APPROVED')
    expect((await failures(card.id)).three_ds_failures).toBe(0)
  })

  it('without a code authorises as before and leaves the code alone; a code on another message is 422', async () => {
    const { token, card } = await cardholder()
    const { code } = await otp(token, card.id)
    const auth = await authorize(card.id)
    expect(auth.status).toBe('APPROVED')
    expect((await otpRows(card.id))[0]!.used_at).toBeNull()

    const clearing = await network({
      card_id: card.id,
      type: 'CLEARING',
      authorization_id: auth.id,
      merchant: undefined,
      three_ds_code: code,
    })
    const problem = expectProblem(clearing, 422, 'THREE_DS_NOT_APPLICABLE')
    expect(problem.errors).toEqual([{ field: '/body/three_ds_code', message: expect.any(String) }])
    // Not six digits: refused by the schema, nothing recorded.
    expect((await network({ card_id: card.id, three_ds_code: '12345' })).statusCode).toBe(422)
    const count = await app.db
      .selectFrom('card_transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('card_id', '=', card.id)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(1)
    expect((await otpRows(card.id))[0]!.used_at).toBeNull()
  })

  it('answers a repeated message by its network_message_id: nothing spent or counted twice', async () => {
    const { token, card } = await cardholder()
    const { code } = await otp(token, card.id)
    const replayed = (response: LightMyRequestResponse) => {
      expect(response.headers['idempotent-replayed']).toBe('true')
      return ok<CardTransaction>(response, 200)
    }

    const typo = { card_id: card.id, three_ds_code: wrong(code), network_message_id: 'tds-1' }
    const declined = await authorize(card.id, undefined, typo)
    expect(declined).toMatchObject(declinedThreeDs)
    expect(replayed(await network(typo))).toEqual(declined)
    expect((await failures(card.id)).three_ds_failures).toBe(1)
    // The same id with another code is another message.
    expectProblem(await network({ ...typo, three_ds_code: code }), 409, 'IDEMPOTENCY_CONFLICT')

    const right = { card_id: card.id, three_ds_code: code, network_message_id: 'tds-2' }
    const approved = await authorize(card.id, undefined, right)
    expect(approved.status).toBe('APPROVED')
    expect(replayed(await network(right))).toEqual(approved)
    expect(await failures(card.id)).toEqual({ three_ds_failures: 0, three_ds_failed_since: null })
  })

  it('keeps card numbers out of every answer, log line and row', async () => {
    // Runs last in the file: every card issued above is checked.
    await expectNoCardNumbers(app, { logs: logs.lines, answers })
  })
})

import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ActivityDetail } from '../../../contract/activity.ts'
import type { TokenPair } from '../../../contract/auth.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import { defaultControls } from '../../../contract/card-controls.ts'
import type { CardTransaction, Merchant } from '../../../contract/card-transactions.ts'
import {
  bearer,
  createTestApp,
  describeServer,
  expectProblem,
  headers,
  signIn,
} from '../../test-support.ts'
import { CardProcessor } from '../card-transactions/card-network.ts'
import { expectLedgerInvariants } from '../ledger/ledger-test-support.ts'
import { cardCalls, ok, testCardKeys } from './card-test-support.ts'

const SHOP: Merchant = { name: 'Corner Shop', mcc: '5411', city: 'Lisbon', country: 'PT' }
const HOTEL: Merchant = { name: 'Hotel Lisboa', mcc: '7011', city: 'Lisbon', country: 'PT' }
const CASINO: Merchant = { name: 'Lucky Star', mcc: '7995', city: 'Valletta', country: 'MT' }
const STREAMING: Merchant = { name: 'Streaming Plus', mcc: '4899', city: 'Dublin', country: 'IE' }

/*
 * Issue 30: a card's controls, set by its owner and applied by the sandbox
 * card network before the balance. Each control declines what it should and
 * lets the rest through; loosening them needs the second look, tightening never.
 */
describeServer('card controls', () => {
  let app: FastifyInstance
  const keys = testCardKeys()
  beforeAll(async () => {
    app = await createTestApp({ ...keys.env, OTP_RESEND_INTERVAL: '0' })
  })
  afterAll(() => app?.close())

  const { call, fundedCard } = cardCalls(() => app)
  const controlsOf = (token: string, id: string) =>
    call(token, 'GET', `/issuing/cards/${id}/controls`)
  const put = (token: string, id: string, controls: CardControls) =>
    call(token, 'PUT', `/issuing/cards/${id}/controls`, controls)

  const authorize = async (
    cardId: string,
    merchant: Merchant,
    amount = '10.00',
    channel?: string,
  ) =>
    ok<CardTransaction>(
      await app.inject({
        method: 'POST',
        url: '/api/sandbox/card-transactions',
        payload: {
          card_id: cardId,
          type: 'AUTHORIZATION',
          amount,
          currency: 'EUR',
          merchant,
          ...(channel && { channel }),
        },
      }),
      201,
    )

  it('a new card answers the defaults, and keeps a set as the person sends it, tidied', async () => {
    const { token, card } = await fundedCard()
    expect(ok<CardControls>(await controlsOf(token, card.id))).toEqual(defaultControls())
    const sent: CardControls = {
      ...defaultControls(),
      blocked_categories: ['gambling', 'gambling'],
      blocked_countries: ['RU'],
      blocked_merchants: ['  Streaming Plus '],
      category_limits: [{ category: 'travel', interval: 'day', amount: '200' }],
    }
    const kept = ok<CardControls>(await put(token, card.id, sent))
    expect(kept).toEqual({
      ...sent,
      blocked_categories: ['gambling'],
      blocked_merchants: ['Streaming Plus'],
      category_limits: [{ category: 'travel', interval: 'day', amount: '200.00' }],
    })
    expect(ok<CardControls>(await controlsOf(token, card.id))).toEqual(kept)
  })

  it('each control declines what it should and approves the rest', async () => {
    const { token, card } = await fundedCard(500_000n)
    ok(
      await put(token, card.id, {
        channels: { online: false, contactless: true, chip: true, magstripe: false, atm: true },
        blocked_categories: ['gambling'],
        blocked_countries: ['RU'],
        allowed_countries: null,
        blocked_merchants: ['streaming plus'],
        category_limits: [
          { category: 'travel', interval: 'transaction', amount: '300.00' },
          { category: 'travel', interval: 'day', amount: '400.00' },
        ],
      }),
    )
    const expectDecline = async (t: Promise<CardTransaction>, reason: string, limit?: string) =>
      expect(await t).toMatchObject({
        status: 'DECLINED',
        decline_reason: reason,
        exceeded_limit: limit ?? null,
      })
    const approved = async (t: Promise<CardTransaction>) =>
      expect((await t).status).toBe('APPROVED')

    await expectDecline(authorize(card.id, SHOP, '10.00', 'online'), 'CHANNEL_BLOCKED')
    await expectDecline(authorize(card.id, SHOP, '10.00', 'magstripe'), 'CHANNEL_BLOCKED')
    await approved(authorize(card.id, SHOP, '10.00', 'contactless'))
    await approved(authorize(card.id, SHOP)) // chip, the default
    await expectDecline(authorize(card.id, { ...SHOP, country: 'RU' }), 'COUNTRY_BLOCKED')
    await expectDecline(authorize(card.id, CASINO), 'CATEGORY_BLOCKED')
    await expectDecline(authorize(card.id, STREAMING), 'MERCHANT_BLOCKED')
    await approved(authorize(card.id, { ...STREAMING, name: 'Streaming Minus' }))
    await expectDecline(
      authorize(card.id, HOTEL, '300.01'),
      'CATEGORY_LIMIT_EXCEEDED',
      'per_transaction',
    )
    await approved(authorize(card.id, HOTEL, '300.00'))
    await expectDecline(authorize(card.id, HOTEL, '100.01'), 'CATEGORY_LIMIT_EXCEEDED', 'daily')
    await approved(authorize(card.id, HOTEL, '100.00'))
    // Groceries count against no travel limit.
    await approved(authorize(card.id, SHOP, '500.00'))

    // Only some countries: the rest decline.
    ok(
      await put(token, card.id, {
        ...(ok<CardControls>(await controlsOf(token, card.id)) as CardControls),
        allowed_countries: ['PT'],
      }),
    )
    await expectDecline(authorize(card.id, { ...SHOP, country: 'ES' }), 'COUNTRY_BLOCKED')
    await approved(authorize(card.id, SHOP))
    await expectLedgerInvariants(app)
  })

  it('the month’s category limit sums the card’s payments in that category this UTC month', async () => {
    const { token, card } = await fundedCard(500_000n)
    ok(
      await put(token, card.id, {
        ...defaultControls(),
        category_limits: [{ category: 'restaurants', interval: 'month', amount: '100.00' }],
      }),
    )
    const processor = new CardProcessor(app.db, keys.crypto)
    const at = (iso: string, amount: string, mcc = '5812') =>
      processor.process(
        {
          card_id: card.id,
          type: 'AUTHORIZATION',
          amount,
          currency: 'EUR',
          merchant: { ...SHOP, name: 'Café', mcc },
        },
        new Date(iso),
      )
    expect((await at('2031-05-02T10:00:00Z', '60.00')).status).toBe('APPROVED')
    // 5814 (fast food) is a restaurant too; a grocery (5411) is not.
    expect((await at('2031-05-20T10:00:00Z', '40.01', '5814')).exceeded_limit).toBe('monthly')
    expect((await at('2031-05-20T10:00:00Z', '40.01', '5411')).status).toBe('APPROVED')
    expect((await at('2031-05-20T10:00:00Z', '40.00', '5814')).status).toBe('APPROVED')
    expect((await at('2031-06-01T00:00:00Z', '100.00')).status).toBe('APPROVED')
  })

  it('a decline by the controls is recorded, in the activity with its channel, and told', async () => {
    const { token, card } = await fundedCard()
    ok(
      await put(token, card.id, {
        ...defaultControls(),
        channels: { ...defaultControls().channels, online: false },
      }),
    )
    const declined = await authorize(card.id, SHOP, '12.00', 'online')
    expect(declined).toMatchObject({ decline_reason: 'CHANNEL_BLOCKED', channel: 'online' })
    const item = await app.inject({
      method: 'GET',
      url: `/api/v2/activity/${declined.activity_id}`,
      headers: headers(bearer(token)),
    })
    expect(ok<ActivityDetail>(item)).toMatchObject({
      status: 'declined',
      failure_code: 'CHANNEL_BLOCKED',
      channel: 'online',
      dispute: null,
    })
    const events = await app.db
      .selectFrom('events')
      .select(['payload'])
      .where('kind', '=', 'card.authorization.declined')
      .execute()
    const event = events.find((each) => each.payload.transaction_id === declined.id)
    expect(event?.payload).toMatchObject({
      reason: 'CHANNEL_BLOCKED',
      channel: 'online',
      category: 'groceries',
    })
  })

  it('loosening needs the second look; tightening never does', async () => {
    const { token: owner, card } = await fundedCard()
    const email = (
      await app.inject({ method: 'GET', url: '/api/v2/user', headers: headers(bearer(owner)) })
    ).json<{ email: string }>().email
    // Another session of the owner's that never proved presence.
    const unproven = (await signIn(app, { email })).json<TokenPair>().access_token
    const strict = {
      ...defaultControls(),
      channels: { ...defaultControls().channels, online: false, atm: false },
      blocked_categories: ['gambling' as const],
    }
    expect(ok<CardControls>(await put(unproven, card.id, strict))).toEqual(strict)
    // The same set again changes nothing, and needs nothing.
    ok(await put(unproven, card.id, strict))
    const online = {
      ...strict,
      channels: { ...strict.channels, online: true },
    }
    expectProblem(await put(unproven, card.id, online), 403, 'STEP_UP_REQUIRED')
    expectProblem(
      await put(unproven, card.id, { ...strict, blocked_categories: [] }),
      403,
      'STEP_UP_REQUIRED',
    )
    expect(ok<CardControls>(await controlsOf(unproven, card.id))).toEqual(strict)
    // The owner's session proved presence at sign-up.
    expect(ok<CardControls>(await put(owner, card.id, online)).channels.online).toBe(true)
  })

  it('refuses what cannot be kept, another person’s card, and a closed card', async () => {
    const { token, card } = await fundedCard()
    const bad = expectProblem(
      await put(token, card.id, {
        ...defaultControls(),
        blocked_countries: ['XX'],
        category_limits: [{ category: 'cash', interval: 'day', amount: '0.001' }],
      }),
      422,
      'INVALID_CONTROLS',
    )
    expect(bad.errors).toEqual([
      { field: '/body/blocked_countries/0', message: 'XX is not a known country.' },
      { field: '/body/category_limits/0/amount', message: 'At most 2 decimal places.' },
    ])
    expectProblem(
      await put(token, card.id, { ...defaultControls(), blocked_categories: ['poker'] } as never),
      422,
      'VALIDATION_FAILED',
    )
    const other = await fundedCard()
    expectProblem(await controlsOf(other.token, card.id), 404, 'CARD_NOT_FOUND')
    expectProblem(await put(other.token, card.id, defaultControls()), 404, 'CARD_NOT_FOUND')
    ok(await call(token, 'DELETE', `/issuing/cards/${card.id}`))
    expectProblem(await put(token, card.id, defaultControls()), 409, 'CARD_STATUS_CONFLICT')
  })

  it('only an authorisation says how the card was presented', async () => {
    const { card } = await fundedCard()
    const auth = await authorize(card.id, SHOP)
    const clearing = await app.inject({
      method: 'POST',
      url: '/api/sandbox/card-transactions',
      payload: {
        card_id: card.id,
        type: 'CLEARING',
        amount: '10.00',
        currency: 'EUR',
        authorization_id: auth.id,
        channel: 'online',
      },
    })
    expectProblem(clearing, 422, 'CHANNEL_NOT_APPLICABLE')
  })
})

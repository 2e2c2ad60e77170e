import {
  constants,
  createDecipheriv,
  generateKeyPairSync,
  publicEncrypt,
  randomBytes,
} from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type {
  Card,
  CardDetail,
  CardList,
  CardOtp,
  CardRevealList,
  CardSecrets,
  SecretKeyReply,
  SecretPublicKey,
} from '../../../contract/cards.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import {
  bearer,
  captureLogs,
  createFiatAccount,
  createTestApp,
  createWallet,
  describeServer,
  expectProblem,
  headers,
} from '../../test-support.ts'
import { defaultProgramId, FIAT } from '../issuing/default-programs.ts'
import { transfer } from '../ledger/rules.ts'
import { post, systemAccount } from '../ledger/service.ts'
import {
  ADDRESS,
  cardCalls,
  cardNumbersIn,
  EUR_BALANCE,
  expectNoCardNumbers,
  ok,
  PREPAID,
} from './card-test-support.ts'
import { REVEALS_PER_MINUTE } from './routes.ts'
import { deriveCvv, isLuhnValid } from './rules.ts'

const CVK = randomBytes(32)
const ARCHIVED = defaultProgramId(DEMO_TENANT_ID, 'eur-prepaid-classic')

describeServer('card issuing: /api/v1/issuing/cards…', () => {
  let app: FastifyInstance
  const logs = captureLogs()
  /** Every answer of the file, for the check that no number is ever in one. */
  const { answers, call, person, onAccount } = cardCalls(() => app)
  /** Every number revealed, for the leak checks. */
  const revealed: string[] = []

  beforeAll(async () => {
    app = await createTestApp({ CARD_CVK: CVK.toString('base64url') }, { logStream: logs.stream })
  })
  afterAll(() => app?.close())

  async function standAlone(token: string, walletId: string, extra: Record<string, unknown> = {}) {
    return ok<Card>(
      await call(token, 'POST', '/issuing/cards/create', {
        wallet_uuid: walletId,
        program_id: PREPAID,
        form_factor: 'VIRTUAL',
        ...extra,
      }),
      201,
    )
  }

  async function publicKey(token: string) {
    return ok<SecretPublicKey>(await call(token, 'GET', '/issuing/config/secret-key'))
      .public_key_pem
  }

  /** What the client (the comlink worker, later) does: a fresh key and the time, under RSA-OAEP-256. */
  function clientKey(pem: string, timestamp = Date.now()) {
    const key = randomBytes(32)
    const plaintext = JSON.stringify({ key: key.toString('base64'), timestamp })
    const encrypted = publicEncrypt(
      { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(plaintext),
    )
    return { key, encrypted_key: encrypted.toString('base64') }
  }

  function open(key: Buffer, reply: SecretKeyReply): CardSecrets {
    const decipher = createDecipheriv('aes-256-cbc', key, Buffer.from(reply.iv, 'base64'))
    const plain = Buffer.concat([
      decipher.update(Buffer.from(reply.data, 'base64')),
      decipher.final(),
    ])
    return JSON.parse(plain.toString('utf8'))
  }

  async function reveal(token: string, cardId: string) {
    const client = clientKey(await publicKey(token))
    const reply = ok<SecretKeyReply>(
      await call(token, 'POST', `/issuing/cards/${cardId}/sensitive/secretkey`, {
        encrypted_key: client.encrypted_key,
      }),
    )
    const secrets = open(client.key, reply)
    revealed.push(secrets.data.pan)
    return { reply, secrets, client }
  }

  /** Puts money on a fiat account's ledger sub-account, as a top-up would. */
  async function fund(accountId: string, minor: bigint) {
    const account = await app.db
      .selectFrom('fiat_accounts')
      .select(['ledger_account_id', 'currency_uuid'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow()
    await app.db.transaction().execute(async (trx) => {
      const external = await systemAccount(trx, DEMO_TENANT_ID, 'external')
      await post(trx, {
        tenantId: DEMO_TENANT_ID,
        kind: 'test_top_up',
        idempotencyKey: `test:${accountId}:${minor}`,
        postings: transfer(external, account.ledger_account_id, account.currency_uuid, minor),
      })
    })
  }

  async function available(walletId: string, currencyUuid: string) {
    const row = await app.db
      .selectFrom('ledger_accounts as a')
      .innerJoin('account_balances as b', 'b.account_id', 'a.id')
      .select('b.balance_minor')
      .where('a.wallet_id', '=', walletId)
      .where('a.kind', '=', 'user_wallet')
      .where('b.currency_uuid', '=', currencyUuid)
      .executeTakeFirst()
    return BigInt(row?.balance_minor ?? '0')
  }

  it('publishes the RSA public key of the secret exchange (2048 bits or more), never the private one', async () => {
    const { token } = await person()
    const answer = ok<SecretPublicKey>(await call(token, 'GET', '/issuing/config/secret-key'))
    expect(answer.algorithm).toBe('RSA-OAEP-256')
    expect(answer.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    expect(answer.public_key_pem).not.toMatch(/PRIVATE/)
    const { publicKey: again } = { publicKey: await publicKey(token) }
    expect(again).toBe(answer.public_key_pem)
    const noAuth = await app.inject({
      method: 'GET',
      url: '/api/v1/issuing/config/secret-key',
      headers: headers(),
    })
    expectProblem(noAuth, 401, 'UNAUTHORIZED')
  })

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
      await app.inject({
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
    const accounts = await app.db
      .selectFrom('fiat_accounts')
      .select('id')
      .where('wallet_id', '=', wallet.uuid)
      .execute()
    expect(accounts).toEqual([])
  })

  it('issues cards on an existing fiat account, not on a stand-alone card’s nor another user’s', async () => {
    const { token, wallet } = await person()
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
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
    const second = await createWallet(app, token, 'business')
    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
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

  it('freezes, unfreezes and closes along the state machine; an illegal transition answers 409 with the status', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const act = (path: string, method: 'PATCH' | 'DELETE' = 'PATCH') =>
      call(token, method, `/issuing/cards/${card.id}${path}`)
    const conflict = async (response: LightMyRequestResponse, status: string) =>
      expect(expectProblem(response, 409, 'CARD_STATUS_CONFLICT').card_status).toBe(status)

    await conflict(await act('/unfreeze'), 'ACTIVE')
    expect(ok<Card>(await act('/freeze')).status).toBe('FROZEN')
    await conflict(await act('/freeze'), 'FROZEN')
    expect(ok<Card>(await act('/unfreeze')).status).toBe('ACTIVE')
    expect(ok<Card>(await act('/freeze')).status).toBe('FROZEN')
    // A frozen card can still be revealed and closed.
    await reveal(token, card.id)
    expect(ok<Card>(await act('', 'DELETE')).status).toBe('CLOSED')

    await conflict(await act('/freeze'), 'CLOSED')
    await conflict(await act('/unfreeze'), 'CLOSED')
    await conflict(await act('', 'DELETE'), 'CLOSED')
    await conflict(
      await call(token, 'PATCH', `/issuing/cards/${card.id}/limits`, {
        per_transaction: '1',
        daily: '2',
        monthly: '3',
      }),
      'CLOSED',
    )
    await conflict(
      await call(token, 'PATCH', `/issuing/cards/${card.id}/update`, {
        nick_name: 'x',
        request_id: 'r-closed',
      }),
      'CLOSED',
    )
    const client = clientKey(await publicKey(token))
    await conflict(
      await call(token, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
        encrypted_key: client.encrypted_key,
      }),
      'CLOSED',
    )
    await conflict(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`), 'CLOSED')
    // Still listed, as closed.
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).status).toBe('CLOSED')
  })

  /** The `card.closed` events of a card (the outbox, as committed). */
  const closedEvents = async (cardId: string) =>
    (
      await app.db
        .selectFrom('events')
        .select('payload')
        .where('kind', '=', 'card.closed')
        .where(sql<string>`payload->>'card_id'`, '=', cardId)
        .execute()
    ).map(({ payload }) => payload)

  it('closing a stand-alone card returns its balance to the wallet through the ledger and cancels its account', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    await fund(card.fiat_account.id, 5_000n)
    expect(await available(wallet.uuid, FIAT.EUR)).toBe(0n)

    ok<Card>(await call(token, 'DELETE', `/issuing/cards/${card.id}`))
    expect(await available(wallet.uuid, FIAT.EUR)).toBe(5_000n)
    const detail = ok<CardDetail>(await call(token, 'GET', `/issuing/cards/${card.id}`))
    expect(detail.fiat_account).toMatchObject({ status: 'CANCELED', balance: '0.00' })
    const records = await app.db
      .selectFrom('wallet_transactions')
      .select(['type', 'method', 'record_type', 'status', 'amount_minor', 'operation_id'])
      .where('wallet_id', '=', wallet.uuid)
      .execute()
    expect(records).toEqual([
      {
        type: 'deposit',
        method: 'p2p',
        record_type: 'CARD_PROVIDER_REFUND',
        status: 'complete',
        amount_minor: '5000',
        operation_id: card.id,
      },
    ])
    const entries = await app.db
      .selectFrom('journal_entries')
      .select('kind')
      .where('idempotency_key', '=', `card:${card.id}:closed`)
      .execute()
    expect(entries).toEqual([{ kind: 'card_closed' }])
    // Told, with what came back (issue 28: a close moves money, and tells of it).
    expect(await closedEvents(card.id)).toEqual([
      { card_id: card.id, last4: card.last4, returned_amount: '50.00', currency: 'EUR' },
    ])
  })

  it('closing an empty stand-alone card, or a card on a shared account, moves no money', async () => {
    const { token, wallet } = await person()
    const empty = await standAlone(token, wallet.uuid)
    ok<Card>(await call(token, 'DELETE', `/issuing/cards/${empty.id}`))
    expect(await available(wallet.uuid, FIAT.EUR)).toBe(0n)

    const account = await createFiatAccount(app, token, wallet.uuid, EUR_BALANCE)
    // 12.00 less the issue fee of 5.00.
    await fund(account.id, 1_200n)
    const card = await onAccount(token, account.id)
    ok<Card>(await call(token, 'DELETE', `/issuing/cards/${card.id}`))
    const detail = ok<CardDetail>(await call(token, 'GET', `/issuing/cards/${card.id}`))
    expect(detail.fiat_account).toMatchObject({ status: 'ACTIVE', balance: '7.00' })
    expect(await available(wallet.uuid, FIAT.EUR)).toBe(0n)
    // Each close is told; nothing came back from either.
    for (const closed of [empty, card]) {
      expect(await closedEvents(closed.id)).toEqual([
        { card_id: closed.id, last4: closed.last4, returned_amount: null, currency: 'EUR' },
      ])
    }
    // The account takes a new card.
    await onAccount(token, account.id)
  })

  it('sets limits: positive, per_transaction ≤ daily ≤ monthly, at most the currency’s decimals', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const set = (limits: Record<string, string>) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/limits`, limits)
    const fields = (response: LightMyRequestResponse) =>
      expectProblem(response, 422, 'INVALID_LIMITS').errors?.map((error) => error.field)

    expect(
      ok<Card>(await set({ per_transaction: '25.5', daily: '100', monthly: '100' })).limits,
    ).toEqual({ per_transaction: '25.50', daily: '100.00', monthly: '100.00' })
    expect(await fields(await set({ per_transaction: '0', daily: '100', monthly: '200' }))).toEqual(
      ['/body/per_transaction'],
    )
    expect(
      await fields(await set({ per_transaction: '10', daily: '300', monthly: '200' })),
    ).toEqual(['/body/daily'])
    expect(
      await fields(await set({ per_transaction: '10.001', daily: '300', monthly: '400' })),
    ).toEqual(['/body/per_transaction'])
    expect((await set({ per_transaction: '-1', daily: '300', monthly: '400' })).statusCode).toBe(
      422,
    )
    expect((await set({ per_transaction: '1', daily: '3' })).statusCode).toBe(422)
    // The refusals changed nothing.
    expect(ok<Card>(await call(token, 'GET', `/issuing/cards/${card.id}`)).limits.daily).toBe(
      '100.00',
    )
  })

  it('renames once per request_id: a retry answers the same, another name under it is a conflict', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const rename = (nick_name: string, request_id: string) =>
      call(token, 'PATCH', `/issuing/cards/${card.id}/update`, { nick_name, request_id })

    const first = await rename('Groceries', 'r1')
    expect(ok<Card>(first).nick_name).toBe('Groceries')
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const again = await rename('Groceries', 'r1')
    expect(ok<Card>(again).nick_name).toBe('Groceries')
    expect(again.headers['idempotent-replayed']).toBe('true')
    expectProblem(await rename('Other', 'r1'), 409, 'IDEMPOTENCY_CONFLICT')
    expect(ok<Card>(await rename('Online', 'r2')).nick_name).toBe('Online')
    // A late retry of the first rename does not rename the card back.
    expect(ok<Card>(await rename('Groceries', 'r1')).nick_name).toBe('Online')
    expect((await rename('x'.repeat(65), 'r3')).statusCode).toBe(422)
    expect((await rename('tab\there', 'r4')).statusCode).toBe(422)
    expect((await rename('   ', 'r5')).statusCode).toBe(422)
    expect(ok<Card>(await rename('  Café ☕ ', 'r6')).nick_name).toBe('Café ☕')
  })

  it('answers 404 for another user’s card, on every route, exactly as for a missing one', async () => {
    const owner = await person()
    const card = await standAlone(owner.token, owner.wallet.uuid)
    const { token } = await person()
    const pem = await publicKey(token)
    for (const id of [card.id, crypto.randomUUID()]) {
      const routes: [Parameters<typeof call>[1], string, unknown?][] = [
        ['GET', `/issuing/cards/${id}`],
        ['PATCH', `/issuing/cards/${id}/freeze`],
        ['PATCH', `/issuing/cards/${id}/unfreeze`],
        ['DELETE', `/issuing/cards/${id}`],
        [
          'PATCH',
          `/issuing/cards/${id}/limits`,
          { per_transaction: '1', daily: '1', monthly: '1' },
        ],
        ['PATCH', `/issuing/cards/${id}/update`, { nick_name: 'mine', request_id: 'x' }],
        [
          'POST',
          `/issuing/cards/${id}/sensitive/secretkey`,
          { encrypted_key: clientKey(pem).encrypted_key },
        ],
        ['GET', `/vcards/cards/${id}/sensitive/otp`],
        ['GET', `/issuing/cards/${id}/reveals`],
      ]
      for (const [method, url, body] of routes) {
        expectProblem(await call(token, method, url, body), 404, 'CARD_NOT_FOUND')
      }
    }
    // Nothing happened to the owner's card.
    const still = ok<Card>(await call(owner.token, 'GET', `/issuing/cards/${card.id}`))
    expect(still).toMatchObject({ status: 'ACTIVE', nick_name: null })
    const log = ok<CardRevealList>(
      await call(owner.token, 'GET', `/issuing/cards/${card.id}/reveals`),
    )
    expect(log.total).toBe(0)
  })

  it('reveals number, expiry and CVV through the RSA-OAEP + AES-256-CBC exchange, and logs it', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const { reply, secrets } = await reveal(token, card.id)
    expect(reply).toEqual({
      success: true,
      encrypted: true,
      data: expect.stringMatching(/^[A-Za-z0-9+/]+={0,2}$/),
      iv: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
    })
    const expiry = { month: card.expiry_month, year: card.expiry_year }
    expect(secrets.data).toEqual({
      pan: expect.stringMatching(/^[0-9]{16}$/),
      expiry: `${String(card.expiry_month).padStart(2, '0')}/${String(card.expiry_year).slice(2)}`,
      cvv: deriveCvv(CVK, secrets.data.pan, expiry),
    })
    // Revealed again with a new key: the same card data, derived again.
    const second = await reveal(token, card.id)
    expect(second.secrets).toEqual(secrets)

    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.total).toBe(2)
    // The session of the access token that asked (its `sid` claim).
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    expect(log.data.map((line) => [line.kind, line.session_id])).toEqual([
      ['SECRETS', sid],
      ['SECRETS', sid],
    ])
  })

  it('refuses a replayed, stale, foreign or malformed encrypted_key', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const other = await standAlone(token, wallet.uuid)
    const pem = await publicKey(token)
    const send = (cardId: string, encrypted_key: string) =>
      call(token, 'POST', `/issuing/cards/${cardId}/sensitive/secretkey`, { encrypted_key })

    const client = clientKey(pem)
    ok<SecretKeyReply>(await send(card.id, client.encrypted_key))
    expectProblem(await send(card.id, client.encrypted_key), 409, 'SECRET_KEY_REPLAYED')
    // Seen before is seen before, whichever card it is sent for.
    expectProblem(await send(other.id, client.encrypted_key), 409, 'SECRET_KEY_REPLAYED')

    expectProblem(
      await send(card.id, clientKey(pem, Date.now() - 61_000).encrypted_key),
      422,
      'SECRET_KEY_STALE',
    )
    expectProblem(
      await send(card.id, clientKey(pem, Date.now() + 120_000).encrypted_key),
      422,
      'SECRET_KEY_STALE',
    )
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    })
    expectProblem(
      await send(card.id, clientKey(String(foreign)).encrypted_key),
      422,
      'SECRET_KEY_INVALID',
    )
    expectProblem(await send(card.id, 'not base64!'), 422, 'SECRET_KEY_INVALID')
    const notJson = publicEncrypt(
      { key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('hello'),
    ).toString('base64')
    expectProblem(await send(card.id, notJson), 422, 'SECRET_KEY_INVALID')
    // PKCS#1 v1.5 instead of OAEP does not decrypt.
    const pkcs1 = publicEncrypt(
      { key: pem, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(
        JSON.stringify({ key: randomBytes(32).toString('base64'), timestamp: Date.now() }),
      ),
    ).toString('base64')
    expectProblem(await send(card.id, pkcs1), 422, 'SECRET_KEY_INVALID')

    // Keys accepted long ago are forgotten at the next exchange: by then they are stale anyway.
    await app.db
      .insertInto('card_secret_exchanges')
      .values({
        key_hash: 'old-key',
        tenant_id: DEMO_TENANT_ID,
        card_id: card.id,
        created_at: new Date(Date.now() - 11 * 60_000),
      })
      .execute()
    ok<SecretKeyReply>(await send(card.id, clientKey(pem).encrypted_key))
    const kept = await app.db
      .selectFrom('card_secret_exchanges')
      .select('key_hash')
      .where('card_id', 'in', [card.id, other.id])
      .execute()
    expect(kept).toHaveLength(2)
    expect(kept.map((row) => row.key_hash)).not.toContain('old-key')

    // Only the accepted exchanges are in the log.
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.total).toBe(2)
  })

  it('limits reveals and one-time codes to ten a minute per user', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    for (let i = 0; i < REVEALS_PER_MINUTE - 1; i++) {
      ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    }
    await reveal(token, card.id)
    const refused = await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`)
    expect(expectProblem(refused, 429, 'RATE_LIMITED').retry_after).toBeGreaterThan(0)
    expect(refused.headers['retry-after']).toMatch(/^[0-9]+$/)
    const client = clientKey(await publicKey(token))
    expectProblem(
      await call(token, 'POST', `/issuing/cards/${card.id}/sensitive/secretkey`, {
        encrypted_key: client.encrypted_key,
      }),
      429,
      'RATE_LIMITED',
    )
    // Another user is not held back.
    const other = await person()
    const theirs = await standAlone(other.token, other.wallet.uuid)
    ok<CardOtp>(await call(other.token, 'GET', `/vcards/cards/${theirs.id}/sensitive/otp`))
  })

  it('gives a six-digit one-time code valid five minutes, kept hashed, logged', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    const before = Date.now()
    const otp = ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    expect(otp.code).toMatch(/^[0-9]{6}$/)
    const ttl = Date.parse(otp.expires_at) - before
    expect(ttl).toBeGreaterThanOrEqual(5 * 60_000 - 1_000)
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 5_000)
    const rows = await app.db
      .selectFrom('card_otps')
      .select(['code_hash', 'expires_at'])
      .where('card_id', '=', card.id)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.code_hash).not.toContain(otp.code)
    expect(rows[0]!.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)

    await reveal(token, card.id)
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.data.map((line) => line.kind)).toEqual(['SECRETS', 'OTP'])
    expect(
      ok<CardRevealList>(
        await call(token, 'GET', `/issuing/cards/${card.id}/reveals?limit=1&offset=1`),
      ),
    ).toMatchObject({
      total: 2,
      is_last_page: true,
      data: [{ kind: 'OTP' }],
    })
  })

  it('a new code supersedes the earlier ones: one stored code per card, every one still in the log', async () => {
    const { token, wallet } = await person()
    const card = await standAlone(token, wallet.uuid)
    ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    const second = ok<CardOtp>(await call(token, 'GET', `/vcards/cards/${card.id}/sensitive/otp`))
    const rows = await app.db
      .selectFrom('card_otps')
      .select('expires_at')
      .where('card_id', '=', card.id)
      .execute()
    expect(rows.map((row) => row.expires_at.toISOString())).toEqual([second.expires_at])
    const log = ok<CardRevealList>(await call(token, 'GET', `/issuing/cards/${card.id}/reveals`))
    expect(log.data.map((line) => line.kind)).toEqual(['OTP', 'OTP'])
  })

  it('keeps the number encrypted at rest: no answer, log line or database text holds a card number', async () => {
    // Runs last in the file: every card issued and revealed above is checked.
    expect(revealed.length).toBeGreaterThanOrEqual(5)
    // The detector finds a number where one would leak (a column, a JSON value, a log message).
    expect(cardNumbersIn(`(x,${revealed[0]},y)`)).toEqual([revealed[0]])
    // …but not a chance run of digits inside a SHA-256 hash (a refresh token's, seen in a dump).
    const hash = 'ec14eaab49e33a26e7fe968b3c309afde07f500b8f4710384659481643ceadd9'
    expect(isLuhnValid('4710384659481643')).toBe(true)
    expect(cardNumbersIn(`(x,${hash},y)`)).toEqual([])
    expect(cardNumbersIn(`{"pan":"${revealed[0]}"} card ${revealed[1]}.`)).toEqual(
      revealed.slice(0, 2),
    )
    await expectNoCardNumbers(app, { logs: logs.lines, answers, revealed })
  })
})

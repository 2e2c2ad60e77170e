import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenPair } from '../contract/auth.ts'
import { createCredential } from './domain/auth/passkey-test-support.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  DEMO_PROGRAM,
  describeServer,
  expectProblem,
  headers,
  signUp,
} from './test-support.ts'

/*
 * Issue 26, finding 9: a name someone gives — to an API key, a webhook, a
 * card, a passkey, a counterparty and its account, a deposit address,
 * themselves — is kept without bidi controls or zero-width characters, in
 * NFC, trimmed (contract/names.ts), whichever call gave it.
 */

/** "Savings", dressed up: a right-to-left override, zero-width spaces, a BOM, spaces. */
const DRESSED = ' \u202ESav\u200Bin\u200Dgs\u2066\uFEFF '
const KEPT = 'Savings'
/** Nothing visible at all. */
const INVISIBLE = '\u200B\u202E\u2060'

describeServer('names are kept normalised wherever they are given', () => {
  let app: FastifyInstance
  let pair: TokenPair
  beforeAll(async () => {
    app = await createTestApp()
    pair = await signUp(app, { stepUp: true })
  })
  afterAll(() => app?.close())

  const call = (
    base: 'v1' | 'v2',
    method: 'POST' | 'PATCH' | 'GET',
    url: string,
    payload?: object,
  ) =>
    app.inject({
      method,
      url: `/api/${base}${url}`,
      headers: headers(
        base === 'v1' ? { authorization: pair.access_token } : bearer(pair.access_token),
      ),
      ...(payload && { payload }),
    })
  const body = async <T>(response: Awaited<ReturnType<typeof call>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status)
    return response.json<T>()
  }

  it('an API key’s name, at creation and rename; a blank one is refused', async () => {
    const key = await body<{ id: string; name: string }>(
      await call('v1', 'POST', '/developer/access/create', { name: DRESSED, role: 'READ_ONLY' }),
      201,
    )
    expect(key.name).toBe(KEPT)
    const renamed = await body<{ name: string }>(
      await call('v1', 'POST', '/developer/access/update', {
        id: key.id,
        name: 'Re\u0301my\u200F',
      }),
      200,
    )
    expect(renamed.name).toBe('Rémy')
    const blank = expectProblem(
      await call('v1', 'POST', '/developer/access/create', { name: INVISIBLE, role: 'READ_ONLY' }),
      422,
      'VALIDATION_FAILED',
    )
    expect(blank.errors?.[0]?.field).toBe('/body/name')
  })

  it('a webhook endpoint’s description, at registration and change', async () => {
    const endpoint = await body<{ id: string; description: string }>(
      await call('v1', 'POST', '/developer/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        description: DRESSED,
      }),
      201,
    )
    expect(endpoint.description).toBe(KEPT)
    const changed = await body<{ description: string }>(
      await call('v1', 'PATCH', `/developer/webhooks/${endpoint.id}`, { description: INVISIBLE }),
      200,
    )
    expect(changed.description).toBe('')
  })

  it('a card’s nick name, at issue and rename; a blank one is refused', async () => {
    const wallet = await createWallet(app, pair.access_token)
    const card = await body<{ id: string; nick_name: string }>(
      await call('v1', 'POST', '/issuing/cards/create', {
        wallet_uuid: wallet.uuid,
        program_id: DEMO_PROGRAM.prepaid,
        form_factor: 'VIRTUAL',
        nick_name: DRESSED,
      }),
      201,
    )
    expect(card.nick_name).toBe(KEPT)
    const renamed = await body<{ nick_name: string }>(
      await call('v1', 'PATCH', `/issuing/cards/${card.id}/update`, {
        nick_name: '\u202DTravel\u202C',
        request_id: 'rename-1',
      }),
      200,
    )
    expect(renamed.nick_name).toBe('Travel')
    const blank = expectProblem(
      await call('v1', 'PATCH', `/issuing/cards/${card.id}/update`, {
        nick_name: INVISIBLE,
        request_id: 'rename-2',
      }),
      422,
      'VALIDATION_FAILED',
    )
    expect(blank.errors?.[0]?.field).toBe('/body/nick_name')
  })

  it('a passkey’s name', async () => {
    const options = await call('v2', 'POST', '/user/passkeys/options')
    const { response } = createCredential(options.json(), {
      origin: 'http://localhost:8080',
      rpId: 'localhost',
    })
    const passkey = await body<{ name: string }>(
      await call('v2', 'POST', '/user/passkeys', { response, name: DRESSED }),
      201,
    )
    expect(passkey.name).toBe(KEPT)
  })

  it('a counterparty’s names and its account’s label and bank', async () => {
    const wallet = await createWallet(app, pair.access_token)
    const person = await body<{
      counterparty_account_id: string
      name: string
      first_name: string
    }>(
      await call('v2', 'POST', `/counterparties/${wallet.uuid}`, {
        type: 'INDIVIDUAL',
        first_name: 'An\u200Bna',
        last_name: '\u202ESchmidt',
        country: 'DE',
      }),
      201,
    )
    expect(person).toMatchObject({ name: 'Anna Schmidt', first_name: 'Anna' })
    const blank = expectProblem(
      await call('v2', 'POST', `/counterparties/${wallet.uuid}`, {
        type: 'BUSINESS',
        legal_name: INVISIBLE,
        country: 'DE',
      }),
      422,
      'VALIDATION_FAILED',
    )
    expect(blank.errors?.[0]?.field).toBe('/body/legal_name')
    const account = await body<{ label: string; bank_name: string }>(
      await call(
        'v2',
        'POST',
        `/counterparties/${wallet.uuid}/${person.counterparty_account_id}/destinations`,
        {
          type: 'SEPA',
          iban: 'DE89370400440532013000',
          label: DRESSED,
          bank_name: 'Commerz\u200Bbank',
        },
      ),
      201,
    )
    expect(account).toMatchObject({ label: KEPT, bank_name: 'Commerzbank' })
  })

  it('a deposit address’s label; nothing visible is no label', async () => {
    const wallet = await createWallet(app, pair.access_token)
    const labelled = await body<{ label: string }>(
      await call('v2', 'POST', `/wallets/${wallet.uuid}/addresses/ethereum`, { label: DRESSED }),
      201,
    )
    expect(labelled.label).toBe(KEPT)
    const unlabelled = await body<{ label: string | null }>(
      await call('v2', 'POST', `/wallets/${wallet.uuid}/addresses/ethereum`, { label: INVISIBLE }),
      201,
    )
    expect(unlabelled.label).toBeNull()
  })

  it('the person’s own name; a blank one is refused', async () => {
    const data = await body<{ first_name: string }>(
      await call('v2', 'PATCH', '/user/user-data', { first_name: DRESSED }),
      200,
    )
    expect(data.first_name).toBe(KEPT)
    const blank = expectProblem(
      await call('v2', 'PATCH', '/user/user-data', { last_name: INVISIBLE }),
      422,
      'VALIDATION_FAILED',
    )
    expect(blank.errors?.[0]?.field).toBe('/body/last_name')
  })
})

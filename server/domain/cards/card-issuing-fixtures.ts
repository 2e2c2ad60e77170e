import { constants, createDecipheriv, publicEncrypt, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import type { Card, CardSecrets, SecretKeyReply, SecretPublicKey } from '../../../contract/cards.ts'
import { DEMO_TENANT_ID } from '../../../contract/tenancy.ts'
import { captureLogs, createTestApp } from '../../test-support.ts'
import { transfer } from '../ledger/rules.ts'
import { post, systemAccount } from '../ledger/service.ts'
import { cardCalls, expectNoCardNumbers, ok, PREPAID } from './card-test-support.ts'

/** The card verification key of the issuing tests' app: a revealed CVV is derived from it. */
export const CVK = randomBytes(32)

/** What the client (the comlink worker, later) does: a fresh key and the time, under RSA-OAEP-256. */
export function clientKey(pem: string, timestamp = Date.now()) {
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

/**
 * The card issuing tests' app, built once per file (beforeAll) with the CVK
 * above and its logs captured, and the calls they share. Every answer and
 * every number revealed is kept for the leak check that ends each file.
 */
export function cardIssuingApp() {
  let app: FastifyInstance
  const logs = captureLogs()
  const calls = cardCalls(() => app)
  const { call } = calls
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

  /** The leak check, run last in the file: no answer, log line or row holds a card number. */
  const expectNoLeaks = () =>
    expectNoCardNumbers(app, { logs: logs.lines, answers: calls.answers, revealed })

  return {
    app: () => app,
    ...calls,
    revealed,
    standAlone,
    publicKey,
    reveal,
    fund,
    available,
    closedEvents,
    expectNoLeaks,
  }
}

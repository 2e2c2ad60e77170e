/**
 * Statements as the server tests drive them: ask, let the job run, read,
 * download; and the sandbox's outside parties that put money on a card's
 * account (a SEPA credit, the card network).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { expect } from 'vitest'
import type { CardTransaction } from '../../../contract/card-transactions.ts'
import type { FiatAccount } from '../../../contract/fiat-accounts.ts'
import type { Statement } from '../../../contract/statements.ts'
import { bearer, headers } from '../../test-support.ts'
import { ok } from '../cards/card-test-support.ts'

export function statementCalls(app: () => FastifyInstance) {
  const ask = (token: string, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
    app().inject({
      method: 'POST',
      url: '/api/v2/statements',
      headers: { ...headers(), ...bearer(token), ...extra },
      payload: body,
    })

  const get = (token: string, url: string) =>
    app().inject({
      method: 'GET',
      url: `/api/v2${url}`,
      headers: { ...headers(), ...bearer(token) },
    })

  /** Runs every due job (the statement's rendering among them). */
  const runJobs = () => app().jobs.runDue({ limit: 100 })

  /** Asks for a statement, renders it and answers it ready with its file. */
  async function made(token: string, body: Record<string, unknown>) {
    const queued = ok<Statement>(await ask(token, body), 202)
    await runJobs()
    const statement = ok<Statement>(await get(token, `/statements/${queued.id}`))
    const job = await app()
      .db.selectFrom('jobs')
      .select('last_error')
      .where(sql<boolean>`payload->>'statement_id' = ${queued.id}`)
      .executeTakeFirst()
    expect(statement, job?.last_error ?? '').toMatchObject({ status: 'ready', progress: 100 })
    const file = await get(token, `/statements/${queued.id}/file`)
    expect(file.statusCode, file.body).toBe(200)
    return { statement, file: file.rawPayload, response: file }
  }

  const verify = (url: string, payload?: string | Buffer | object, contentType?: string) =>
    app().inject({
      method: payload === undefined ? 'GET' : 'POST',
      url: `/api/statements/verify${url}`,
      ...(payload !== undefined && { payload }),
      ...(contentType && { headers: { 'content-type': contentType } }),
      remoteAddress: '203.0.113.7',
    })

  /** A SEPA credit from `sender` into the account's IBAN, asserted 201. */
  const sepaCredit = async (account: FiatAccount, amount: string, sender = 'Lukas Becker') =>
    ok(
      await app().inject({
        method: 'POST',
        url: '/api/sandbox/sepa-credits',
        headers: { 'content-type': 'application/json' },
        payload: { iban: account.bank_details!.iban, amount, currency: 'EUR', sender_name: sender },
      }),
      201,
    )

  /** The sandbox card network's message about `cardId`, asserted 201. */
  const network = async (cardId: string, body: Record<string, unknown>) =>
    ok<CardTransaction>(
      await app().inject({
        method: 'POST',
        url: '/api/sandbox/card-transactions',
        headers: { 'content-type': 'application/json' },
        payload: { card_id: cardId, currency: 'EUR', ...body },
      }),
      201,
    )

  return { ask, get, runJobs, made, verify, sepaCredit, network }
}

export type Answer = LightMyRequestResponse

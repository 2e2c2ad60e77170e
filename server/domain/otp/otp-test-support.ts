import { randomInt } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { OutboxMessage } from '../../../contract/sandbox.ts'
import type { User } from '../../../contract/user.ts'
import { getUser, headers } from '../../test-support.ts'
import { normalisePhone } from './phone.ts'

/** Builders and calls the one-time-code tests share. */

/** A fresh, valid phone number per test (+1 415 …), as a person would type it. */
export function uniquePhone(): string {
  for (;;) {
    const local = `${randomInt(200, 1000)}${String(randomInt(0, 10_000)).padStart(4, '0')}`
    const typed = `+1 (415) ${local.slice(0, 3)}-${local.slice(3)}`
    // "…0000" is the number the sandbox refuses to deliver to.
    if (normalisePhone(typed) && !local.endsWith('0000')) return typed
  }
}

/** The digits a phone is kept as. */
export const digitsOf = (phone: string) => phone.replace(/\D/g, '')

export function sendEmailCode(
  app: FastifyInstance,
  email: string,
  extra: Record<string, unknown> = {},
  requestHeaders = headers(),
) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-in/omni/email/otp',
    headers: requestHeaders,
    payload: { email, ...extra },
  })
}

export function sendPhoneCode(
  app: FastifyInstance,
  phone: string,
  extra: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/sign-in/omni/phone/otp',
    headers: headers(),
    payload: { phone, ...extra },
  })
}

export function verifyEmail(
  app: FastifyInstance,
  email: string,
  token: string,
  requestHeaders = headers(),
) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/verify/email/otp',
    headers: requestHeaders,
    payload: { email, token, type: 'email' },
  })
}

export function verifyPhone(app: FastifyInstance, phone: string, token: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/auth/verify/phone/otp',
    headers: headers(),
    payload: { phone, token, type: 'sms' },
  })
}

/** A message of the outbox that carries a code (every one but a security notice). */
export type CodeMessage = OutboxMessage & { code: string }

/** GET /api/sandbox/outbox?to=…, newest first: the messages with a code. */
export async function outbox(
  app: FastifyInstance,
  to: string,
  query: Record<string, string> = {},
): Promise<CodeMessage[]> {
  const params = new URLSearchParams({ to, ...query })
  const response = await app.inject({ method: 'GET', url: `/api/sandbox/outbox?${params}` })
  expect(response.statusCode, response.body).toBe(200)
  return response
    .json<{ data: OutboxMessage[] }>()
    .data.filter((message): message is CodeMessage => message.code !== null)
}

/** The code of the newest message to `to`. */
export async function latestCode(app: FastifyInstance, to: string): Promise<string> {
  const [newest] = await outbox(app, to)
  if (!newest) throw new Error(`the outbox has nothing for ${to}`)
  return newest.code
}

/** A six-digit code that is not `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

/** The account a token pair signs in as. */
export async function userOf(app: FastifyInstance, pair: TokenPair): Promise<User> {
  const response = await getUser(app, pair.access_token)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<User>()
}

/** The accounts kept under an e-mail or a phone: a sign-in by code makes at most one. */
export function usersWith(app: FastifyInstance, column: 'email' | 'phone', value: string) {
  return app.db.selectFrom('users').selectAll().where(column, '=', value).execute()
}

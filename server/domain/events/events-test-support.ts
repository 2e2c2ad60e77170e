import { createECDH, randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import type { EventEnvelope, EventKind, WebhookEndpoint } from '../../../contract/events.ts'
import { bearer, headers } from '../../test-support.ts'

/** The test apps of this folder run the event jobs (test-support turns them off elsewhere). */
export const DISPATCH = { EVENTS_DISPATCH: 'true' }

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/**
 * An HTTP server on 127.0.0.1 standing in for a webhook receiver, a push
 * service or the Bot API: it records every request and answers each with the
 * next of `statuses` (then 200 for ever), or with `answer` when given.
 */
export async function startReceiver(
  options: {
    statuses?: number[]
    answer?: (request: Received) => { status: number; body?: string }
  } = {},
) {
  const received: Received[] = []
  const statuses = [...(options.statuses ?? [])]
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        raw: Buffer.concat(chunks),
      }
      received.push(entry)
      const answer = options.answer?.(entry) ?? { status: statuses.shift() ?? 200 }
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(answer.body ?? '{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received: received as (Received & { raw: Buffer })[],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Registers a webhook endpoint for the holder of `pair` (v1, raw token). */
export async function addEndpoint(
  app: FastifyInstance,
  pair: TokenPair,
  body: { url: string; event_kinds?: EventKind[]; enabled?: boolean },
  on: Record<string, string> = headers(),
): Promise<WebhookEndpoint> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/developer/webhooks',
    headers: { ...on, authorization: pair.access_token },
    payload: body,
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<WebhookEndpoint>()
}

export async function endpointSecret(app: FastifyInstance, pair: TokenPair, id: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/developer/webhooks/${id}/secret`,
    headers: { ...headers(), authorization: pair.access_token },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ secret: string }>().secret
}

/** The kinds of the events recorded about a person, oldest first. */
export async function eventKinds(app: FastifyInstance, userId: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('events')
    .select('kind')
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
  return rows.map((row) => row.kind)
}

/**
 * Makes the person one who came through the Mini App: a Telegram chat the
 * bot writes to. Answers the chat id (never one the sandbox bot refuses).
 */
export async function joinTelegram(app: FastifyInstance, userId: string): Promise<string> {
  const chatId = String(100_000_000 + Math.floor(Math.random() * 800_000_000))
  const usable = chatId.endsWith('0000') ? `${chatId.slice(0, -1)}1` : chatId
  await app.db.updateTable('users').set({ telegram_id: usable }).where('id', '=', userId).execute()
  return usable
}

/** The person behind a token pair (the access token's subject). */
export async function userIdOf(app: FastifyInstance, pair: TokenPair): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v2/user',
    headers: headers(bearer(pair.access_token)),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ id: string }>().id
}

/**
 * Runs the job queue until nothing is due at `now` (dispatch, then the
 * deliveries it enqueued). Answers how many jobs ran.
 */
export async function drain(app: FastifyInstance, now = new Date()): Promise<number> {
  let total = 0
  for (let round = 0; round < 20; round++) {
    const report = await app.jobs.runDue({ now, limit: 50 })
    const ran = report.done + report.rescheduled + report.failed
    total += ran
    if (ran === 0) return total
  }
  return total
}

/** A browser's push subscription keys: P-256 public key and auth secret, as PushSubscription.toJSON gives them. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return {
    ecdh,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  }
}

/** The person's own session headers, as a v1 call carries them: the token with no `Bearer`. */
export const raw = (pair: TokenPair, on = headers()) => ({
  ...on,
  authorization: pair.access_token,
})

export const envelopeOf = (request: Received) => JSON.parse(request.body) as EventEnvelope

import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Test credentials of the fake Sumsub (the shape of a sandbox app token). */
export const APP_TOKEN = 'sbx:uY0CgwELmgUAEyl4hNWxLngb.0WSeQeiYny4WEqmAALEAiK2qTC96fBad'
export const SECRET_KEY = 'Hej2ch71kG2kTd1iIUDZFNsO5C1lh5Gq'
export const WEBHOOK_SECRET = 'whsec'

/** A webhook as Sumsub would send it: the body and its digest headers (SHA-256 unless named). */
export function signedWebhook(
  payload: Record<string, unknown>,
  secret = WEBHOOK_SECRET,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha256',
) {
  const body = JSON.stringify(payload)
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-payload-digest': createHmac(algorithm, secret).update(body).digest('hex'),
      'x-payload-digest-alg': `HMAC_${algorithm.toUpperCase()}_HEX`,
    },
  }
}

/**
 * A fake Sumsub on 127.0.0.1: it checks every request's app token and
 * signature the way Sumsub documents them (its own HMAC, not the adapter's
 * code) and answers the access-token call.
 */
export async function startFakeSumsub() {
  const seen: { path: string; body: string; signatureOk: boolean }[] = []
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const ts = String(request.headers['x-app-access-ts'] ?? '')
      const expected = createHmac('sha256', SECRET_KEY)
        .update(`${ts}${request.method}${request.url}${body}`)
        .digest('hex')
      const fresh = Math.abs(Date.now() / 1000 - Number(ts)) < 300
      const signatureOk =
        request.headers['x-app-token'] === APP_TOKEN &&
        request.headers['x-app-access-sig'] === expected &&
        fresh
      seen.push({ path: request.url ?? '', body, signatureOk })
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(payload))
      }
      if (!signatureOk) {
        return send(401, { description: 'Request signature mismatch', code: 401 })
      }
      if (request.method === 'POST' && request.url === '/resources/accessTokens/sdk') {
        const { userId } = JSON.parse(body) as { userId: string }
        if (userId === 'broken') return send(500, { description: 'boom', code: 500 })
        return send(200, { token: `_act-sbx-${userId}`, userId })
      }
      send(404, { description: 'Not found', code: 404 })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

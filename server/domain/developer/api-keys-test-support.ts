/** The probe routes and key calls the API-key tests share, on the app each file builds. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { expect } from 'vitest'
import type {
  ApiKey,
  ApiKeyList,
  ApiKeyRole,
  ApiKeyWithSecret,
} from '../../../contract/developer.ts'
import type { RoutesPlugin } from '../../infra/api-scope.ts'
import type { RoutePolicies } from '../../route-policy.ts'
import { headers } from '../../test-support.ts'

/** One route per kind of call, on both bases, to drive the role guard with. */
const probeRoutes: RoutesPlugin = async (app) => {
  const who = async (request: FastifyRequest) => ({ user: request.auth.userId })
  app.get('/probe/read', who)
  app.post('/probe/write', who)
  app.post('/probe/money', who)
  app.post('/probe/payout', who)
}
const extraPolicies: RoutePolicies = Object.fromEntries(
  ['v1', 'v2'].flatMap((base) => [
    [`GET /api/${base}/probe/read`, { access: 'person', key: 'read' }],
    [`POST /api/${base}/probe/write`, { access: 'person', key: 'write' }],
    [`POST /api/${base}/probe/money`, { access: 'person', key: 'money' }],
    [`POST /api/${base}/probe/payout`, { access: 'person', key: 'payout' }],
  ]),
)
export const probes = { extraRoutes: { v1: [probeRoutes], v2: [probeRoutes] }, extraPolicies }

export const raw = (accessToken: string) => headers({ authorization: accessToken })
export const withKey = (key: string, extra: Record<string, string> = {}) =>
  headers({ 'x-api-key': key, ...extra })

export async function createKey(
  app: FastifyInstance,
  accessToken: string,
  body: { name?: string; role: ApiKeyRole; allowed_ips?: string[] },
): Promise<ApiKeyWithSecret> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/developer/access/create',
    headers: raw(accessToken),
    payload: { name: 'CI deploys', ...body },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<ApiKeyWithSecret>()
}

export async function listKeys(app: FastifyInstance, accessToken: string): Promise<ApiKey[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v1/developer/access/list',
    headers: raw(accessToken),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<ApiKeyList>().data
}

/** `POST /developer/access/rotate` with the owner's session, answered as it comes. */
export const rotateKey = (
  app: FastifyInstance,
  accessToken: string,
  payload: { id: string; overlap_seconds?: number },
) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/developer/access/rotate',
    headers: raw(accessToken),
    payload,
  })

export const call = (
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
) =>
  app.inject({
    method,
    url,
    headers: withKey(key, extra.headers),
    ...(method === 'POST' && { payload: {} }),
    ...(extra.remoteAddress && { remoteAddress: extra.remoteAddress }),
  })

export const read = (app: FastifyInstance, key: string, extra = {}) =>
  call(app, key, 'GET', '/api/v2/probe/read', extra)

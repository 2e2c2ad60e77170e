import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { TokenPair } from '../../../contract/auth.ts'
import { DEFAULT_DEMO_PASSWORD, loadConfig } from '../../config.ts'
import { bearer, headers, signIn } from '../../test-support.ts'
import { DEMO_EMAIL } from './demo-plan.ts'

/** The demo tests' key for every generated secret, so a config of theirs needs no DATA_DIR. */
export const KEY = Buffer.alloc(32, 3).toString('base64url')

/** A config of the demo's defaults that touches no DATA_DIR (its keys are given). */
export const demoConfig = (env: Record<string, string> = {}) =>
  loadConfig({
    DATA_DIR: '/nonexistent-unused',
    ADDRESS_SEED_KEY: KEY,
    JWT_SECRET: KEY,
    REFRESH_TOKEN_SECRET: KEY,
    ...env,
  })

/** The demo user signed in, reading as the app does: v1 with the raw token, v2 as a bearer. */
export async function demoReader(app: FastifyInstance) {
  const response = await signIn(app, { email: DEMO_EMAIL, password: DEFAULT_DEMO_PASSWORD })
  expect(response.statusCode, response.body).toBe(200)
  const { access_token: token } = response.json<TokenPair>()
  const read = async <T>(url: string, authorization: Record<string, string>) => {
    const answer = await app.inject({ method: 'GET', url, headers: headers(authorization) })
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.json<T>()
  }
  return {
    v1: <T>(url: string) => read<T>(`/api/v1${url}`, { authorization: token }),
    v2: <T>(url: string) => read<T>(`/api/v2${url}`, bearer(token)),
  }
}

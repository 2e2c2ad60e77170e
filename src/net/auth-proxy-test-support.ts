import { IDBFactory } from 'fake-indexeddb'
import { vi } from 'vitest'
import { DEMO_TENANT_ID } from '../../contract/tenancy.ts'
import { openTokenVault, type Tokens, type TokenVault } from '../storage/token-vault.ts'
import { type AuthProxyDeps, createAuthProxy } from './auth-proxy.ts'
import type { NetConfig } from './config.ts'
import { memoryLocks } from './locks.ts'

// The auth proxy's test bench: a stand-in API server and a proxy over it (auth-proxy*.test.ts).

export const ORIGIN = 'http://localhost'
export const config: NetConfig = {
  v1Base: '/api/v1',
  v2Base: '/api/v2',
  tenantId: DEMO_TENANT_ID,
  appEnv: 'web',
  logoutLocation: '/auth/logout',
  timeoutMs: 60_000,
}
export const REFRESH_URL = `${ORIGIN}/api/v2/auth/refresh/refresh-token`

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
export const unauthorized = () =>
  json(401, { status: 401, code: 'UNAUTHORIZED', title: 'Unauthorized' })
export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Calls that answer a token pair, signed in or not. */
const TOKEN_ANSWERS = new Set([
  '/api/v2/auth/sign-in/password/email',
  '/api/v2/auth/password/reset/confirm',
])

/**
 * A stand-in for the API server: one valid access token at a time, rotating
 * refresh tokens, and a log of everything it was sent.
 */
export function fakeServer(options: { refreshDelayMs?: number } = {}) {
  const server = {
    access: 'access-1',
    refresh: 'refresh-1',
    generation: 1,
    refreshCalls: 0,
    refuseRefresh: false,
    requests: [] as Request[],
    /** Paths that answer 401 whatever the token. */
    alwaysUnauthorized: new Set<string>(),
    onRequest: undefined as ((request: Request) => Promise<void> | void) | undefined,
    async fetch(request: Request): Promise<Response> {
      server.requests.push(request.clone())
      await server.onRequest?.(request)
      const url = new URL(request.url)
      if (request.url === REFRESH_URL) {
        server.refreshCalls++
        await delay(options.refreshDelayMs ?? 5)
        const body = (await request.json()) as { refresh_token: string }
        if (server.refuseRefresh || body.refresh_token !== server.refresh) return unauthorized()
        server.generation++
        server.access = `access-${server.generation}`
        server.refresh = `refresh-${server.generation}`
        return json(200, { access_token: server.access, refresh_token: server.refresh })
      }
      if (TOKEN_ANSWERS.has(url.pathname)) {
        return json(200, { access_token: server.access, refresh_token: server.refresh })
      }
      if (server.alwaysUnauthorized.has(url.pathname)) return unauthorized()
      if (url.pathname === '/api/v2/boom') return json(500, { status: 500, code: 'INTERNAL' })
      const expected = url.pathname.startsWith('/api/v2/')
        ? `Bearer ${server.access}`
        : server.access
      if (request.headers.get('authorization') !== expected) return unauthorized()
      return json(200, { path: url.pathname, body: await request.text() })
    },
    sentTo: (path: string) => server.requests.filter((r) => new URL(r.url).pathname === path),
  }
  return server
}

export type Server = ReturnType<typeof fakeServer>

export function setup(
  overrides: Partial<AuthProxyDeps> & { server?: Server; vault?: TokenVault } = {},
) {
  const server = overrides.server ?? fakeServer()
  const vault = overrides.vault ?? openTokenVault()
  const onLogout = vi.fn<(location: string) => void>()
  const log = vi.fn()
  const proxy = createAuthProxy({
    config,
    vault,
    fetch: (request) => server.fetch(request),
    locks: memoryLocks(),
    onLogout,
    log,
    ...overrides,
  })
  const get = (path: string, init?: RequestInit) =>
    proxy.handle(new Request(`${ORIGIN}${path}`, init))
  return { server, vault, proxy, onLogout, log, get }
}

export const signedIn = async (
  vault: TokenVault,
  tokens: Tokens = { access_token: 'access-1', refresh_token: 'refresh-1' },
) => vault.write(tokens)
/** Every test gets an empty IndexedDB: no vault leaks from one to the next. */
export function freshIndexedDb() {
  globalThis.indexedDB = new IDBFactory()
}

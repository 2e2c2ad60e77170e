import { APP_ENV_HEADER, type AppEnv, TENANT_HEADER } from '../../contract/tenancy.ts'
import type { Tokens, TokenVault } from '../storage/token-vault.ts'
import type { NetConfig } from './config.ts'
import type { Locks } from './locks.ts'

/**
 * The auth proxy of docs/product.md §4, one implementation for every host: the
 * service worker runs it on intercepted requests, and the page runs it
 * whenever no worker controls it (first load, hard reload, Telegram on iOS).
 *
 * For each API request it injects tenant, app environment, content type and
 * Authorization (Bearer on v2, raw on v1). On a 401 it refreshes the tokens at
 * most once — single flight inside this runtime, and across tabs and the
 * worker through a Web Lock, inside which the vault is read from the
 * database — then replays the request once, marked as
 * retried. When that cannot work it wipes the tokens and sends every window
 * to the logout location.
 */
export interface AuthProxyDeps {
  config: NetConfig
  vault: TokenVault
  /** The network: the page's own fetch, or the worker's. */
  fetch: (request: Request) => Promise<Response>
  locks: Locks
  /** Sends every window of the app to `location`. Called once per logout. */
  onLogout: (location: string) => void | Promise<void>
  /**
   * Mini App only: signs in again when there is no refresh token. Without
   * it, the proxy signs in with the init data the request carries in
   * `X-Telegram-Init-Data` (set by the page; never sent on).
   */
  reauthenticate?: (appEnv: AppEnv) => Promise<Tokens | undefined>
  log?: (message: string, details: Record<string, unknown>) => void
}

export interface AuthProxy {
  /** Sends `request` with the session attached; resolves to the response the caller should see. */
  handle(request: Request): Promise<Response>
  /** True when `url` belongs to one of the two API bases. */
  isApiUrl(url: string): boolean
}

export const REFRESH_LOCK = 'auth-refresh'
/** Marks a replay, so a second 401 signs out instead of refreshing again. */
export const RETRIED_HEADER = 'X-Auth-Retried'
/**
 * The Mini App's launch init data, from the page to whichever proxy handles
 * its request (page or service worker), for signing in again without a
 * refresh token. Taken off before the request leaves for the network.
 */
export const INIT_DATA_HEADER = 'X-Telegram-Init-Data'

const REFRESH_PATH = '/auth/refresh/refresh-token'
const TELEGRAM_SIGN_IN_PATH = '/auth/sign-in/telegram'
/** A failing call to one of these can never be rescued by a refresh (docs/product.md §4). */
const NO_REFRESH_PATHS = [REFRESH_PATH, TELEGRAM_SIGN_IN_PATH, '/auth/sign-up/telegram']
/** Answers of these calls carry a new token pair, which goes straight into the vault. */
const ISSUES_TOKENS = /^\/auth\/(sign-in|sign-up|verify|refresh|password\/reset)\//

type Base = 'v1' | 'v2'

export function createAuthProxy(deps: AuthProxyDeps): AuthProxy {
  const { config, vault, locks } = deps
  const log = deps.log ?? ((message, details) => console.warn(`[net] ${message}`, details))
  const bases: Array<[Base, URL]> = [
    ['v1', new URL(config.v1Base, 'http://base.invalid')],
    ['v2', new URL(config.v2Base, 'http://base.invalid')],
  ]

  /** Which base `url` is under, and the path inside it ("/auth/refresh/refresh-token"). */
  function locate(url: URL): { base: Base; path: string } | undefined {
    for (const [base, root] of bases) {
      const sameOrigin = root.origin === 'http://base.invalid' || root.origin === url.origin
      const prefix = root.pathname.replace(/\/$/, '')
      if (sameOrigin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
        return { base, path: url.pathname.slice(prefix.length) || '/' }
      }
    }
    return undefined
  }

  let refreshing: Promise<Tokens | undefined> | undefined
  let loggingOut: Promise<void> | undefined

  function logout(): Promise<void> {
    loggingOut ??= (async () => {
      await vault.clear()
      await deps.onLogout(config.logoutLocation)
    })().finally(() => {
      loggingOut = undefined
    })
    return loggingOut
  }

  /**
   * One refresh for everyone who failed with the same tokens. Inside the lock
   * the vault is read again: if another tab or the worker rotated the tokens
   * meanwhile, those are used and no second refresh is sent.
   */
  function refresh(
    stale: Tokens | undefined,
    appEnv: AppEnv,
    origin: string,
    initData: string | null,
  ): Promise<Tokens | undefined> {
    refreshing ??= locks
      .request(REFRESH_LOCK, async () => {
        const current = await vault.read({ fresh: true })
        if (current && current.access_token !== stale?.access_token) return current
        const fresh = current?.refresh_token
          ? await exchange(current.refresh_token, appEnv, origin)
          : await reauthenticate(appEnv, origin, initData)
        if (fresh) await vault.write(fresh)
        return fresh
      })
      .catch((error: unknown) => {
        log('token refresh failed', { error: String(error) })
        return undefined
      })
      .finally(() => {
        refreshing = undefined
      })
    return refreshing
  }

  async function exchange(
    refreshToken: string,
    appEnv: AppEnv,
    origin: string,
  ): Promise<Tokens | undefined> {
    return issue(REFRESH_PATH, { refresh_token: refreshToken }, appEnv, origin, 'token refresh')
  }

  /** docs/product.md §4 in the Mini App: no refresh token, so sign in again with the launch init data. */
  async function reauthenticate(
    appEnv: AppEnv,
    origin: string,
    initData: string | null,
  ): Promise<Tokens | undefined> {
    if (deps.reauthenticate) return deps.reauthenticate(appEnv)
    if (appEnv !== 'telegram' || !initData) return undefined
    return issue(TELEGRAM_SIGN_IN_PATH, { init_data: initData }, appEnv, origin, 'telegram sign-in')
  }

  /** A POST on v2 that answers with a token pair; undefined when it is refused. */
  async function issue(
    path: string,
    body: unknown,
    appEnv: AppEnv,
    origin: string,
    what: string,
  ): Promise<Tokens | undefined> {
    const url = new URL(`${config.v2Base.replace(/\/$/, '')}${path}`, origin)
    const response = await deps.fetch(
      new Request(url, {
        method: 'POST',
        headers: baseHeaders(new Headers(), appEnv),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
      }),
    )
    if (!response.ok) {
      log(`${what} refused`, { status: response.status })
      return undefined
    }
    return tokensIn(await response.json())
  }

  function baseHeaders(headers: Headers, appEnv: AppEnv): Headers {
    headers.set(TENANT_HEADER, config.tenantId)
    headers.set(APP_ENV_HEADER, appEnv)
    // A string body gets text/plain from the browser unless told otherwise;
    // the API speaks JSON (docs/product.md §7). Uploads keep their own type.
    const type = headers.get('Content-Type')
    if (!type || type.startsWith('text/plain')) headers.set('Content-Type', 'application/json')
    return headers
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const target = locate(url)
    if (!target) return deps.fetch(request)

    const appEnv = (request.headers.get(APP_ENV_HEADER) as AppEnv | null) ?? config.appEnv
    const initData = request.headers.get(INIT_DATA_HEADER)
    // Buffered once, before the first send: a replay must be able to send it again.
    const body =
      request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : await request.arrayBuffer()

    const send = (tokens: Tokens | undefined, retried: boolean) => {
      const headers = baseHeaders(new Headers(request.headers), appEnv)
      headers.delete(INIT_DATA_HEADER)
      if (tokens?.access_token) {
        headers.set(
          'Authorization',
          target.base === 'v2' ? `Bearer ${tokens.access_token}` : tokens.access_token,
        )
      }
      if (retried) headers.set(RETRIED_HEADER, '1')
      const timeout = AbortSignal.timeout(config.timeoutMs)
      return deps.fetch(
        new Request(url, {
          method: request.method,
          headers,
          body,
          credentials: request.credentials,
          redirect: request.redirect,
          signal: AbortSignal.any([request.signal, timeout]),
        }),
      )
    }

    const sentWith = await vault.read()
    const alreadyRetried = request.headers.has(RETRIED_HEADER)
    const response = await send(sentWith, alreadyRetried)
    if (response.status !== 401) return settle(response)

    // docs/product.md §4, in its order: calls a refresh cannot rescue, a second 401
    // after a replay, no refresh token outside the Mini App.
    if (target.base === 'v2' && NO_REFRESH_PATHS.includes(target.path)) return loggedOut(response)
    if (alreadyRetried) return loggedOut(response)
    // From the database: a vault that remembers may not have heard of another tab's rotation yet.
    const current = await vault.read({ fresh: true })
    if (!current?.refresh_token && appEnv !== 'telegram') return loggedOut(response)

    const fresh = await refresh(sentWith, appEnv, url.origin, initData)
    if (!fresh) return loggedOut(response)

    const replay = await send(fresh, true)
    if (replay.status === 401) return loggedOut(replay)
    return settle(replay)

    async function settle(answer: Response): Promise<Response> {
      if (answer.ok && target?.base === 'v2' && ISSUES_TOKENS.test(target.path)) {
        const issued = tokensIn(
          await answer
            .clone()
            .json()
            .catch(() => undefined),
        )
        if (issued) await vault.write(issued)
      }
      if (!answer.ok) {
        log('request failed', { method: request.method, url: url.pathname, status: answer.status })
      }
      return answer
    }
  }

  async function loggedOut(response: Response): Promise<Response> {
    await logout()
    return response
  }

  return {
    handle,
    isApiUrl: (url) => locate(new URL(url, globalThis.location?.href)) !== undefined,
  }
}

function tokensIn(body: unknown): Tokens | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const { access_token, refresh_token } = body as Record<string, unknown>
  if (typeof access_token !== 'string' || access_token === '') return undefined
  return { access_token, refresh_token: typeof refresh_token === 'string' ? refresh_token : null }
}

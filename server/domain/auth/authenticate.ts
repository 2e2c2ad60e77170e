import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Gauge } from 'prom-client'
import { API_KEY_HEADER, type ApiKeyRole } from '../../../contract/developer.ts'
import type { Products } from '../../../contract/tenants.ts'
import type { Config } from '../../config.ts'
import type { AuthScheme } from '../../infra/api-scope.ts'
import { assertNever, ProblemError } from '../../infra/problem.ts'
import { ApiKeyAuthenticator } from '../developer/key-auth.ts'
import { type KeyAction, type KeyRefusal, refusal } from '../developer/rules.ts'
import { type SessionUser, sessionState } from './repository.ts'
import { parseSessionEnd, SESSION_ENDS_CHANNEL, SessionCache } from './session-cache.ts'
import { type AccessClaims, Tokens } from './tokens.ts'

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens
    /** This process's live sessions (session-cache.ts): the session check's answers without a query. */
    sessions: SessionCache
    /** onRequest hook for an API scope; routes with `config: { public: true }` pass through. */
    authenticate: (scheme: AuthScheme) => (request: FastifyRequest) => Promise<void>
  }
  interface FastifyRequest {
    /**
     * Set on every protected route once the access token or API key checked
     * out. A key acts as its owner; its id stands in for the session id (so a
     * card's reveal log names the key).
     */
    auth: AccessClaims
    /** The developer API key the call came with; null for a signed-in session. */
    apiKey: { id: string; role: ApiKeyRole } | null
    /**
     * The signed-in person as the session check read them, in its own query:
     * a call that shows the user needs no second read. Null for an API key.
     */
    sessionUser: SessionUser | null
    /** The tenant's products, read with the session (the product gate's; null for an API key). */
    tenantProducts: Products | null
  }
  interface FastifyContextConfig {
    /*
     * The three below are set from the route's entry in server/route-policy.ts
     * (server/route-guards.ts), never by a routes file.
     */
    public?: boolean
    /** Only a signed-in person may make the call, never an API key. */
    sessionOnly?: boolean
    /**
     * What the call does as an API key's role sees it; by the request when one
     * route serves several documented acts (an order's type). None: no key.
     */
    keyAction?: KeyAction | ((request: FastifyRequest) => KeyAction)
  }
}

const unauthorized = (detail: string) =>
  new ProblemError(401, 'UNAUTHORIZED', detail, { headers: { 'www-authenticate': 'Bearer' } })

/**
 * The answer for an account the tenant blocked (docs/product.md §8: 423), on every
 * protected call and at every sign-in that proved who the person is.
 */
export const userBlocked = () =>
  new ProblemError(423, 'USER_BLOCKED', 'This account has been blocked. Contact support.')

function tokenFrom(header: string | undefined, scheme: AuthScheme): string | undefined {
  if (!header) return undefined
  if (scheme === 'raw') return /^bearer /i.test(header) ? undefined : header.trim() || undefined
  const match = /^Bearer ([^\s]+)$/i.exec(header)
  return match?.[1]
}

/** One answer for every unusable key, so none tells an attacker which check failed. */
const keyInvalid = () =>
  new ProblemError(401, 'API_KEY_INVALID', 'The API key is invalid.', {
    headers: { 'www-authenticate': 'ApiKey' },
  })

/** The one switch from a key's refusal (developer/rules.ts) to its answer. */
function keyRefused(refused: KeyRefusal, role: ApiKeyRole): ProblemError {
  switch (refused.kind) {
    case 'role':
      return new ProblemError(
        403,
        'API_KEY_ROLE_FORBIDDEN',
        `This call needs an API key with the ${refused.required} role; this key is ${role}.`,
        { extensions: { required_role: refused.required } },
      )
    case 'allow_list':
      return new ProblemError(
        403,
        'API_KEY_ALLOW_LIST_REQUIRED',
        'This call sends money out: it needs an API key usable only from the addresses of its ' +
          'allowed_ips. Set them on the key, or make the call signed in.',
      )
    default:
      return assertNever(refused)
  }
}

export default fp(
  async function auth(app: FastifyInstance, opts: { config: Config }) {
    const tokens = new Tokens(opts.config.secrets, opts.config.accessTokenTtl)
    const keys = new ApiKeyAuthenticator(app.db, app.limits, {
      ratePerMinute: opts.config.apiKeys.rateLimitPerMinute,
    })
    app.decorate('tokens', tokens)
    const sessions = await liveSessions(app, opts.config)
    app.decorate('sessions', sessions)
    app.decorateRequest('auth', null as unknown as AccessClaims)
    app.decorateRequest('apiKey', null)
    app.decorateRequest('sessionUser', null)
    app.decorateRequest('tenantProducts', null)

    /** X-API-Key: the key's owner in the key's tenant, within the key's role. */
    async function authenticateKey(request: FastifyRequest, key: string) {
      const { config } = request.routeOptions
      const check = await keys.check(key, { tenantId: request.tenantId, ip: request.ip })
      if (!check.ok) {
        if (check.reason === 'blocked') throw userBlocked()
        if (check.reason === 'rate_limited') {
          throw new ProblemError(
            429,
            'API_KEY_RATE_LIMITED',
            'This API key made too many calls this minute. Wait and try again.',
            {
              headers: { 'retry-after': String(check.retryAfterSeconds) },
              extensions: { retry_after: check.retryAfterSeconds },
            },
          )
        }
        throw keyInvalid()
      }
      const { identity } = check
      const rule = config.keyAction
      if (config.sessionOnly || rule === undefined) {
        throw new ProblemError(
          403,
          'SESSION_REQUIRED',
          'Only a signed-in person can make this call, not an API key.',
        )
      }
      const action = typeof rule === 'function' ? rule(request) : rule
      const refused = refusal(identity, action, opts.config.sandbox)
      if (refused) throw keyRefused(refused, identity.role)
      request.auth = {
        userId: identity.userId,
        tenantId: identity.tenantId,
        sessionId: identity.keyId,
      }
      request.apiKey = { id: identity.keyId, role: identity.role }
    }

    app.decorate('authenticate', (scheme: AuthScheme) => async (request: FastifyRequest) => {
      if (request.routeOptions.config.public) return
      const key = request.headers[API_KEY_HEADER]
      if (typeof key === 'string') return authenticateKey(request, key.trim())
      const token = tokenFrom(request.headers.authorization, scheme)
      if (!token) {
        throw unauthorized(
          scheme === 'bearer'
            ? 'Send the access token as "Authorization: Bearer <token>".'
            : 'Send the access token as "Authorization: <token>".',
        )
      }
      const claims = await tokens.verifyAccess(token)
      // A token is only good in the tenant it was issued for.
      if (!claims || claims.tenantId !== request.tenantId) {
        throw unauthorized('The access token is invalid or has expired.')
      }
      // Revoked sessions (sign-out, refresh-token reuse) end their access tokens at
      // once; so does blocking the account. Kept live sessions answer both without a
      // query: every process hears of an end as it commits (session-cache.ts).
      const cached = sessions.find(claims)
      if (cached) {
        request.auth = claims
        request.sessionUser = cached.user
        request.tenantProducts = cached.products
        return
      }
      const epoch = sessions.epoch
      const session = await sessionState(app.db, claims)
      if (session.state === 'ended') throw unauthorized('The session has ended. Sign in again.')
      if (session.state === 'blocked') throw userBlocked()
      const { user, products } = session
      const { tenantId, userId, sessionId } = claims
      sessions.keep(sessionId, { tenantId, userId, user, products }, epoch)
      request.auth = claims
      request.sessionUser = user
      request.tenantProducts = products
    })
  },
  { name: 'auth', dependencies: ['db', 'metrics', 'tenancy', 'rate-limits'] },
)

/**
 * The session cache, told by the database of every end (migration 0036) for as long
 * as the app runs. None kept (SESSION_CACHE_SIZE=0): nothing to hear, no connection.
 */
async function liveSessions(app: FastifyInstance, config: Config): Promise<SessionCache> {
  const sessions = new SessionCache(config.sessionCacheSize)
  if (sessions.size === 0) return sessions
  let lostAt: number | undefined
  const stop = await app.dbListen(SESSION_ENDS_CHANNEL, {
    listening() {
      sessions.listening()
      if (lostAt === undefined) return
      app.log.info({ unheardMs: Date.now() - lostAt }, 'hearing session ends again')
      lostAt = undefined
    },
    lost(error) {
      sessions.lost()
      if (lostAt !== undefined) return
      lostAt = Date.now()
      app.log.warn({ err: error }, 'session ends unheard: every request reads its session')
    },
    notification: (payload) => sessions.end(parseSessionEnd(payload)),
  })
  app.addHook('onClose', stop)
  const registers = [app.metrics.registry]
  new Gauge({
    name: 'session_cache_listening',
    help: '1 while this node hears sessions end (and answers live ones from memory), else 0',
    registers,
    collect() {
      this.set(sessions.trusted ? 1 : 0)
    },
  })
  new Gauge({
    name: 'session_cache_entries',
    help: 'Live sessions this node keeps in memory',
    registers,
    collect() {
      this.set(sessions.count)
    },
  })
  return sessions
}

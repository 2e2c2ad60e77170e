import type {
  FastifyInstance,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from './config.ts'
import { type KeyAction, stricterAction } from './domain/developer/rules.ts'
import { isLockedDown } from './domain/lockdown/repository.ts'
import { lockdownRefusal } from './domain/lockdown/rules.ts'
import { documentedPaths } from './infra/openapi.ts'
import { ProblemError } from './infra/problem.ts'
import { limitGuards } from './route-limits.ts'
import type { PersonPolicy, RoutePolicies, RoutePolicy } from './route-policy.ts'

/** The routes the policy covers: the two API bases, the sandbox's, and the public checks'. */
const BASES = ['/api/v1/', '/api/v2/', '/api/sandbox/', '/api/statements/', '/api/proofs/'] as const

/** `/a/:b/c/` as the document writes it: `/a/{b}/c`. */
export const documentPath = (url: string) =>
  url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1')

/** A path's shape, its parameters unnamed: docs/product.md §7 names some two ways (`{chain}`, `{chain_id}`). */
const shapeOf = (key: string) => key.replace(/\{[^}]+\}/g, '{}')

/** The policies by the shape of `METHOD /path`; two entries of one shape are a mistake. */
function byShape(policies: RoutePolicies): Map<string, RoutePolicy> {
  const shapes = new Map<string, RoutePolicy>()
  for (const [key, policy] of Object.entries(policies)) {
    if (shapes.has(shapeOf(key))) throw new Error(`route-policy.ts names ${key} twice`)
    shapes.set(shapeOf(key), policy)
  }
  return shapes
}

type Security = Record<string, string[]>[]

/** What the document says the route asks of its caller, as its policy decides. */
function securityFor(url: string, policy: RoutePolicy): Security {
  if (policy.access === 'public') return []
  const schemes = url.startsWith('/api/v1/')
    ? ['raw']
    : url.startsWith('/api/v2/')
      ? ['bearer']
      : ['bearer', 'raw']
  return [...schemes.map((scheme) => ({ [scheme]: [] })), ...(policy.key ? [{ apiKey: [] }] : [])]
}

/** One route's policies, as the guards need them. */
interface RouteGuard {
  /** Who may call and its limits: one answer for every documented path of the route. */
  policy: RoutePolicy
  /** What an API key does by this call (the route's documented path may depend on it). */
  keyAction?: KeyAction | ((request: FastifyRequest) => KeyAction)
  /** This call's second look, when any documented path of the route has one. */
  stepUp?: (request: FastifyRequest) => PersonPolicy['stepUp']
  /** The act this call is to a lockdown, when any documented path of the route is refused in one. */
  refusedInLockdown?: (request: FastifyRequest) => PersonPolicy['refusedInLockdown']
}

/**
 * One route's guard: its single entry, or — where the document gives the route
 * a path per value of a parameter (an order's type) — one entry per value,
 * chosen by the request. Those must agree on who may call and the limits: the
 * document has one `security` for the route, and a key is checked before the
 * parameter is (a value the schema refuses then meets the strictest key rule).
 */
function routeGuard(method: string, url: string, policies: Map<string, RoutePolicy>): RouteGuard {
  const documented = documentedPaths(method, documentPath(url)).map((each) => {
    const policy = policies.get(shapeOf(`${method} ${each.path}`))
    if (!policy) {
      throw new Error(
        `${method} ${each.path} has no entry in server/route-policy.ts: name its guard there.`,
      )
    }
    return { value: each.parameter?.value, policy }
  })
  const [first] = documented as [(typeof documented)[number]]
  const alike = ({ policy }: (typeof documented)[number]) =>
    policy.access === first.policy.access &&
    (isPerson(policy) && policy.key !== undefined) ===
      (isPerson(first.policy) && first.policy.key !== undefined) &&
    JSON.stringify(policy.limits ?? []) === JSON.stringify(first.policy.limits ?? [])
  if (!documented.every(alike)) {
    throw new Error(`${method} ${url}: its documented paths must agree on access, key and limits`)
  }
  const people = documented.map(({ policy }) => policy).filter(isPerson)
  if (people.length === 0) return { policy: first.policy }
  const name = documentedPaths(method, documentPath(url))[0]?.parameter?.name ?? ''
  const of = (request: FastifyRequest) => {
    if (documented.length === 1) return first.policy as PersonPolicy
    const value = (request.params as Record<string, unknown>)[name]
    return documented.find((each) => each.value === value)?.policy as PersonPolicy | undefined
  }
  const keys = people.flatMap((policy) => (policy.key ? [policy.key] : []))
  const strictest = keys.length > 0 ? keys.reduce(stricterAction) : undefined
  return {
    policy: first.policy,
    keyAction:
      strictest &&
      (documented.length === 1 ? strictest : (request) => of(request)?.key ?? strictest),
    ...(people.some((policy) => policy.stepUp) && { stepUp: (request) => of(request)?.stepUp }),
    ...(people.some((policy) => policy.refusedInLockdown) && {
      refusedInLockdown: (request) => of(request)?.refusedInLockdown,
    }),
  }
}

const isPerson = (policy: RoutePolicy): policy is PersonPolicy => policy.access === 'person'

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]

/**
 * Applies server/route-policy.ts to every route of the API as it is registered:
 * who may call (`config.public`, `sessionOnly`, the key's action for
 * auth/authenticate.ts), a lockdown's refusal (409 LOCKDOWN_ACTIVE, before the
 * body is validated), the second look (`app.requireStepUp`) and the limits, in
 * that order, before the route's own preHandlers; and the document's `security`. A route under the API bases
 * without an entry stops the boot.
 */
export default fp(
  async function routeGuards(
    app: FastifyInstance,
    opts: { config: Config; policies: RoutePolicies },
  ) {
    const policies = byShape(opts.policies)
    const limits = limitGuards(app, opts.config)

    app.addHook('onRoute', (route: RouteOptions) => {
      if (!BASES.some((base) => route.url.startsWith(base))) return
      const [declared] = [route.method].flat()
      // Fastify's own HEAD beside a GET is the GET's: one entry serves both.
      const method = declared === 'HEAD' ? 'GET' : String(declared)
      const { policy, keyAction, stepUp, refusedInLockdown } = routeGuard(
        method,
        route.url,
        policies,
      )

      route.config = {
        ...route.config,
        public: policy.access === 'public',
        sessionOnly: policy.access === 'person' && keyAction === undefined,
        keyAction,
      }
      route.schema = { ...route.schema, security: securityFor(route.url, policy) }

      if (refusedInLockdown) {
        // Before the body is read and before the second look: the act is refused whatever it
        // says, and a proof asked for an act refused anyway would be wasted.
        const lockdown: preValidationHookHandler = async (request) => {
          const act = refusedInLockdown(request)
          if (act && (await isLockedDown(app.db, request.auth))) {
            throw new ProblemError(409, 'LOCKDOWN_ACTIVE', lockdownRefusal(act), {
              extensions: { act },
            })
          }
        }
        route.preValidation = [lockdown, ...asList(route.preValidation)]
      }
      const guards: preHandlerHookHandler[] = []
      if (stepUp) {
        guards.push(async (request) => {
          const when = stepUp(request)
          if (when === true || (when && (await when(request, app)))) {
            await app.requireStepUp(request)
          }
        })
      }
      const senders: onSendHookHandler[] = []
      for (const name of policy.limits ?? []) {
        const limit = limits[name]
        guards.push(limit.preHandler)
        if (limit.onSend) senders.push(limit.onSend as onSendHookHandler)
      }
      if (guards.length > 0) route.preHandler = [...guards, ...asList(route.preHandler)]
      if (senders.length > 0) route.onSend = [...senders, ...asList(route.onSend)]
    })
  },
  { name: 'route-guards', dependencies: ['auth', 'security', 'rate-limits'] },
)

import type { Problem } from '../../contract/problem.ts'
import { netConfig } from './config.ts'
import { withStepUp } from './step-up.ts'

/** A non-2xx answer, with its problem details when the server sent them. */
export class ApiError extends Error {
  /** When the answer arrived: "try again in N s" counts down from here. */
  readonly receivedAt = Date.now()

  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    /** Seconds from a `Retry-After` header, for answers whose body does not say. */
    private readonly retryAfterHeader?: number,
  ) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`)
    this.name = 'ApiError'
  }

  get code(): string | undefined {
    return this.problem?.code
  }

  /** Seconds to wait before asking again (429), from the problem or the header. */
  get retryAfter(): number | undefined {
    return this.problem?.retry_after ?? this.retryAfterHeader
  }
}

/** `Retry-After` in seconds; the HTTP-date form is turned into seconds from now. */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

interface Options {
  body?: unknown
  query?: Record<string, string | number | boolean | undefined>
  signal?: AbortSignal
}

/**
 * The app's only way to the API. Headers and tokens are not its business: the
 * auth proxy (service worker or page) adds them on the way out. A sensitive
 * call answered 403 STEP_UP_REQUIRED is asked for in place (net/step-up.ts)
 * and made again once the person confirmed; never more than once.
 */
async function call<T>(
  base: string,
  method: Method,
  path: string,
  options: Options = {},
): Promise<T> {
  return withStepUp(() => send<T>(base, method, path, options))
}

async function send<T>(
  base: string,
  method: Method,
  path: string,
  options: Options = {},
): Promise<T> {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) search.set(key, String(value))
  }
  const query = search.size > 0 ? `?${search}` : ''
  const response = await fetch(`${base}${path}${query}`, {
    method,
    signal: options.signal,
    ...(options.body !== undefined && {
      body: JSON.stringify(options.body),
      headers: { 'Content-Type': 'application/json' },
    }),
  })
  if (!response.ok) {
    const problem = await response.json().catch(() => undefined)
    throw new ApiError(
      response.status,
      problem as Problem | undefined,
      retryAfterSeconds(response.headers.get('Retry-After')),
    )
  }
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

const client = (base: string) => ({
  get: <T>(path: string, options?: Omit<Options, 'body'>) => call<T>(base, 'GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Options) =>
    call<T>(base, 'POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Options) =>
    call<T>(base, 'PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Options) =>
    call<T>(base, 'PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: Options) => call<T>(base, 'DELETE', path, options),
})

export const api = {
  v1: client(netConfig.v1Base),
  v2: client(netConfig.v2Base),
}

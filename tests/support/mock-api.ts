import { vi } from 'vitest'

/**
 * A stand-in for the API in unit tests: `fetch` is replaced, each call is
 * recorded, and answered by the route table ("POST /auth/verify/email/otp",
 * paths without the /api/v2 base). A route missing from the table answers 404.
 */
export interface Call {
  method: string
  path: string
  query: URLSearchParams
  body: unknown
}

export interface Reply {
  status?: number
  body?: unknown
  headers?: Record<string, string>
}

export type Route = Reply | ((call: Call) => Reply | Promise<Reply>)

export function mockApi(routes: Record<string, Route>) {
  const calls: Call[] = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test')
    const call: Call = {
      method: init.method ?? 'GET',
      path: url.pathname.replace(/^\/api\/v[12]/, ''),
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    }
    calls.push(call)
    const route = routes[`${call.method} ${call.path}`]
    const reply: Reply = !route
      ? problem(404, 'NOT_FOUND')
      : typeof route === 'function'
        ? await route(call)
        : route
    const status = reply.status ?? 200
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    })
  })
  vi.stubGlobal('fetch', fetch)
  /** The calls to one route, e.g. `to('PATCH /user/user-data')`. */
  const to = (route: string) => calls.filter((call) => `${call.method} ${call.path}` === route)
  return { calls, to, fetch }
}

/** An RFC 9457 answer; its English detail is there to prove the app never shows it. */
export function problem(status: number, code: string, extra: Record<string, unknown> = {}): Reply {
  return {
    status,
    body: {
      type: `https://docs.finplatform.dev/problems/${code.toLowerCase()}`,
      title: 'Problem',
      status,
      code,
      detail: 'English detail for developers',
      ...extra,
    },
  }
}

export const otpSent = (overrides: Record<string, unknown> = {}): Reply => ({
  body: {
    channel: 'email',
    destination: 'a•••@example.com',
    expires_in: 300,
    resend_in: 60,
    ...overrides,
  },
})

export const COUNTRIES = {
  body: {
    data: [
      { code: 'US', name: 'United States', dial_codes: ['1'], flag: '🇺🇸' },
      { code: 'GB', name: 'United Kingdom', dial_codes: ['44'], flag: '🇬🇧' },
      { code: 'RU', name: 'Russia', dial_codes: ['7'], flag: '🇷🇺' },
      { code: 'DE', name: 'Germany', dial_codes: ['49'], flag: '🇩🇪' },
    ],
    total: 4,
    limit: 4,
    offset: 0,
    is_last_page: true,
  },
}

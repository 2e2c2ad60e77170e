import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { beforeAll, expect, it } from 'vitest'
import { ROUTE_POLICY } from './route-policy.ts'
import { createTestApp, describeServer } from './test-support.ts'

type Security = Record<string, string[]>[]
interface Document {
  paths: Record<string, Record<string, { security?: Security }>>
}

/** `METHOD /path` → the security the document gives it. */
async function operationsOf(app: FastifyInstance): Promise<Map<string, Security | undefined>> {
  const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>()
  return new Map(
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [
        `${method.toUpperCase()} ${path}`,
        operation.security,
      ]),
    ),
  )
}

/**
 * Issue 26: server/route-policy.ts names every route's guard. The document is
 * generated from the routes the server registers, so walking it both ways
 * proves the table and the routes agree; the Sumsub webhook exists only with
 * KYC_PROVIDER=sumsub, so its document is walked too.
 */
describeServer('one policy per route', () => {
  let operations: Map<string, Security | undefined>
  beforeAll(async () => {
    const sandbox = await createTestApp()
    const sumsub = await createTestApp({
      KYC_PROVIDER: 'sumsub',
      SUMSUB_BASE_URL: 'http://127.0.0.1:9',
      SUMSUB_APP_TOKEN: 'sbx:route-policy-test',
      SUMSUB_SECRET_KEY: 'route-policy-test-secret',
      SUMSUB_WEBHOOK_SECRET: 'route-policy-test-webhook',
    })
    try {
      operations = new Map([...(await operationsOf(sandbox)), ...(await operationsOf(sumsub))])
    } finally {
      await sandbox.close()
      await sumsub.close()
    }
  })

  it('names every route of the OpenAPI document, and no route that is not there', () => {
    const documented = [...operations.keys()]
    const named = Object.keys(ROUTE_POLICY)
    expect(documented.filter((key) => !(key in ROUTE_POLICY))).toEqual([])
    expect(named.filter((key) => !operations.has(key))).toEqual([])
    expect(documented).toContain('POST /api/v1/kyc/sumsub/webhook')
  })

  it('the document says what the table says: nothing for public calls, a key only where one may', () => {
    for (const [key, policy] of Object.entries(ROUTE_POLICY)) {
      const security = operations.get(key) ?? []
      const schemes = security.flatMap((requirement) => Object.keys(requirement))
      if (policy.access === 'public') {
        expect(schemes, key).toEqual([])
        continue
      }
      const base = key.split(' ')[1]!.split('/')[2]
      const expected = base === 'v1' ? ['raw'] : base === 'v2' ? ['bearer'] : ['bearer', 'raw']
      expect(schemes, key).toEqual(policy.key ? [...expected, 'apiKey'] : expected)
    }
  })

  it('every act the issue names as a thief’s asks for the second look, and no key manages access', () => {
    const guarded = (key: string) => {
      const policy = ROUTE_POLICY[key]
      return policy?.access === 'person' && policy.stepUp !== undefined
    }
    const acts = [
      'POST /api/v1/issuing/cards/create',
      'POST /api/v1/issuing/cards/balance',
      'POST /api/v1/orders/TRANSFER_CARD_WHOLESALE',
      'POST /api/v1/orders/TRANSFER_CARD_PREPAID',
      'POST /api/v1/orders/TRANSFER_CARD_SUBACCOUNT',
      'PATCH /api/v1/issuing/cards/{id}/activate',
      'PATCH /api/v1/issuing/cards/{id}/limits',
      'GET /api/v1/vcards/cards/{id}/sensitive/otp',
      'POST /api/v1/issuing/cards/{id}/sensitive/secretkey',
      'DELETE /api/v1/issuing/cards/{id}',
      'POST /api/v1/orders/WITHDRAWAL_CRYPTO',
      'POST /api/v1/orders/WITHDRAWAL_FIAT_SEPA',
      'POST /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations',
      'POST /api/v1/developer/webhooks',
      'PATCH /api/v1/developer/webhooks/{id}',
      'GET /api/v1/developer/webhooks/{id}/secret',
      'POST /api/v1/developer/webhooks/{id}/rotate-secret',
      'POST /api/v2/push/subscriptions',
      'PUT /api/v2/notifications/preferences',
      'PATCH /api/v2/user/email',
      'PATCH /api/v2/user/phone',
      'POST /api/v2/user/passkeys',
      'DELETE /api/v2/user/passkeys/{id}',
      'POST /api/v1/developer/access/create',
      'POST /api/v1/developer/access/update',
      'POST /api/v1/developer/access/rotate',
      'POST /api/v2/user/sessions/sign-out-others',
    ]
    expect(acts.filter((key) => !guarded(key))).toEqual([])

    const keyFree = Object.keys(ROUTE_POLICY).filter((key) =>
      /\/(developer\/(access|webhooks)|push|user\/(passkeys|sessions|step-up|email|phone))/.test(
        key,
      ),
    )
    expect(keyFree.length).toBeGreaterThan(20)
    for (const key of keyFree) {
      const policy = ROUTE_POLICY[key]!
      expect(policy.access === 'person' && policy.key, key).toBeFalsy()
    }
    // A key sends money out only as a payout: PRODUCTION, bound to an allow-list.
    for (const key of [
      'POST /api/v1/orders/WITHDRAWAL_CRYPTO',
      'POST /api/v1/orders/WITHDRAWAL_FIAT_SEPA',
      'POST /api/v2/counterparties/{wallet_id}/{counterparty_account_id}/destinations',
      'POST /api/v1/issuing/cards/create',
    ]) {
      expect(ROUTE_POLICY[key], key).toMatchObject({ key: 'payout' })
    }
  })

  it('docs/api.md lists exactly the acts that need the second look, and what a key may do', () => {
    const api = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8')
    const listed = api.slice(
      api.indexOf('<!-- guarded acts'),
      api.indexOf('<!-- end of guarded acts -->'),
    )
    const rows = [...listed.matchAll(/^\| `([A-Z]+ [^`]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map(
      ([, key, keyRule]) => [key, keyRule!.trim()],
    )
    const guarded = Object.entries(ROUTE_POLICY).flatMap(([key, policy]) =>
      policy.access === 'person' && policy.stepUp ? [[key, policy.key ?? '—']] : [],
    )
    expect(rows.sort()).toEqual(guarded.sort())
  })

  it('a route registered without an entry stops the boot, naming it', async () => {
    const unnamed = async (scope: FastifyInstance) => {
      scope.get('/nobody-named-me', async () => ({ ok: true }))
    }
    await expect(createTestApp({}, { extraRoutes: { v2: [unnamed] } })).rejects.toThrow(
      /GET \/api\/v2\/nobody-named-me has no entry in server\/route-policy\.ts/,
    )
  })
})

import { randomUUID } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { TEST_BOT_TOKEN } from './domain/auth/telegram-test-support.ts'
import { cardCalls } from './domain/cards/card-test-support.ts'
import { expectLedgerInvariants } from './domain/ledger/ledger-test-support.ts'
import { createTestApp, describeServer, headers } from './test-support.ts'

/**
 * # Every operation of the OpenAPI document, fed what it should refuse
 *
 * Generated from `/api/openapi.json`: for each operation, wrong types in the
 * body, missing and extra fields, huge strings, `1e309` (Infinity to
 * JSON.parse), `-0`, `"0x10"`, NUL bytes, deep nesting, bad ids in the path,
 * odd query values, bodies that are not objects or not JSON, and wrong
 * content types. Whatever the operation, no answer is a 5xx, every 4xx is
 * problem+json with a code, and no balance moves.
 *
 * Ids in bodies are unknown ones (a malformed body with real ids could be a
 * valid request that moves money, which is not what is tested); GET routes
 * get the fuzz user's real ids in their paths, so odd queries reach the
 * database.
 */

interface Schema {
  type?: string | string[]
  format?: string
  enum?: unknown[]
  const?: unknown
  minLength?: number
  minimum?: number
  pattern?: string
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
}
interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  schema: Schema
}
interface Operation {
  method: string
  path: string
  parameters: Parameter[]
  body: Schema | undefined
}
interface Case {
  what: string
  url: string
  payload?: string
  contentType?: string | null
  headers?: Record<string, string>
}

/** JSON text values a body field should refuse (raw: 1e309 is not something JSON.stringify writes). */
const DEEP = `${'['.repeat(5_000)}${']'.repeat(5_000)}`
const WRONG_VALUES = [
  '1e309',
  '-0',
  '"0x10"',
  '42',
  'true',
  'null',
  '[]',
  '{}',
  `"${'x'.repeat(100_000)}"`,
  '"a\\u0000b"',
  DEEP,
  '"\\ud800"',
  '-1',
  '1.5',
  '[["nested"]]',
  '{"$gt":""}',
]
/** Raw bodies that are not the object an operation takes. */
const WRONG_BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"a":',
  '\u0000',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
  `{"padding":"${'x'.repeat(1_100_000)}"}`,
]
const BAD_IDS = [
  'not-a-uuid',
  '0',
  '-0',
  '1e309',
  '0x10',
  encodeURIComponent("'; drop table users; --"),
  '%00',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  encodeURIComponent('ＡＢＣ🙂'),
  'a'.repeat(2_000),
  randomUUID().toUpperCase(),
]
const QUERY_VALUES = [
  '1e309',
  '-0',
  '0x10',
  '',
  'x'.repeat(10_000),
  '\u0000',
  'NaN',
  '-1',
  '99999999999999999999',
  '[]',
  'true',
]
const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json-patch+json',
  null,
]

/** A plausible value for a schema: the body around the field under test. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'x'
  const alternative = (schema.anyOf ?? schema.oneOf)?.find((s) => s.type !== 'null')
  if (alternative) return sample(alternative, depth + 1)
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const name of schema.required ?? []) {
        value[name] = sample(schema.properties?.[name], depth + 1)
      }
      return value
    }
    case 'array':
      return [sample(schema.items, depth + 1)]
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return true
    default:
      if (schema.format === 'uuid') return randomUUID()
      if (schema.format === 'date') return '2000-01-01'
      if (schema.format === 'date-time') return '2000-01-01T00:00:00Z'
      if (schema.format === 'email') return 'fuzz@example.com'
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1))
  }
}

/** The body's object schema, whichever union member is an object. */
const objectOf = (schema: Schema): Schema | undefined =>
  schema.properties ? schema : (schema.anyOf ?? schema.oneOf)?.find((s) => s.properties)

/** `skeleton` as JSON text with `field` replaced by the raw `value`. */
function withField(skeleton: Record<string, unknown>, field: string, value: string) {
  const marker = `__fuzz_${randomUUID()}__`
  return JSON.stringify({ ...skeleton, [field]: marker }).replace(`"${marker}"`, value)
}

function casesOf(operation: Operation, realIds: Record<string, string>): Case[] {
  const cases: Case[] = []
  const pathParams = operation.parameters.filter((p) => p.in === 'path')
  const queryParams = operation.parameters.filter((p) => p.in === 'query')
  // Real ids only where nothing can be written: a GET.
  const idFor = (name: string) =>
    operation.method === 'GET' && realIds[name] ? realIds[name] : randomUUID()
  const fill = (path: string, replace: Record<string, string> = {}) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (replace[name] !== undefined) return replace[name]
      const schema = pathParams.find((p) => p.name === name)?.schema
      return schema?.enum ? String(schema.enum[0]) : idFor(name)
    })
  const url = fill(operation.path)
  const body = operation.body
  const skeleton = body ? (sample(body) as Record<string, unknown>) : undefined
  const skeletonText = skeleton === undefined ? undefined : JSON.stringify(skeleton)

  for (const parameter of pathParams) {
    for (const bad of BAD_IDS) {
      cases.push({
        what: `path ${parameter.name}=${bad.slice(0, 20)}`,
        url: fill(operation.path, { [parameter.name]: bad }),
        payload: skeletonText,
      })
    }
  }
  for (const parameter of queryParams) {
    for (const value of QUERY_VALUES) {
      cases.push({
        what: `query ${parameter.name}=${JSON.stringify(value.slice(0, 20))}`,
        url: `${url}?${parameter.name}=${encodeURIComponent(value)}`,
        payload: skeletonText,
      })
    }
    cases.push({
      what: `query ${parameter.name} twice`,
      url: `${url}?${parameter.name}=1&${parameter.name}=2`,
      payload: skeletonText,
    })
  }
  if (body && skeleton) {
    for (const raw of WRONG_BODIES)
      cases.push({ what: `body ${raw.slice(0, 20)}`, url, payload: raw })
    const object = objectOf(body)
    for (const name of object?.required ?? []) {
      const { [name]: _, ...rest } = skeleton
      cases.push({ what: `missing ${name}`, url, payload: JSON.stringify(rest) })
    }
    cases.push({
      what: 'extra field',
      url,
      payload: JSON.stringify({ ...skeleton, fuzz_extra: 'x' }),
    })
    const fields = Object.keys(object?.properties ?? {})
    for (const [index, field] of fields.entries()) {
      // Every wrong value on the first field; a rotating third of them on the others.
      const values =
        index === 0 ? WRONG_VALUES : WRONG_VALUES.filter((_, i) => (i + index) % 3 === 0)
      for (const value of values) {
        cases.push({
          what: `${field}=${value.slice(0, 20)}`,
          url,
          payload: withField(skeleton, field, value),
        })
      }
    }
    for (const contentType of CONTENT_TYPES) {
      cases.push({ what: `content-type ${contentType}`, url, payload: skeletonText, contentType })
    }
  }
  cases.push({
    what: 'a garbage API key',
    url,
    payload: skeletonText,
    headers: { 'x-api-key': 'fp_live_\u00ff'.replace('\u00ff', 'x'.repeat(300)) },
  })
  cases.push({
    what: 'an unknown tenant',
    url,
    payload: skeletonText,
    headers: { 'x-tenant-id': randomUUID() },
  })
  return cases
}

describeServer('the API under malformed input (generated from the OpenAPI document)', () => {
  let app: FastifyInstance
  let token: string
  const realIds: Record<string, string> = {}
  beforeAll(async () => {
    // Telegram configured, so its sign-in routes judge their input instead of answering 503.
    app = await createTestApp({ TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN })
    // A verified person with a wallet and a funded card: money that must stay put.
    const funded = await cardCalls(() => app).fundedCard(25_000n)
    token = funded.token
    Object.assign(realIds, {
      wallet_uuid: funded.wallet.uuid,
      wallet_id: funded.wallet.uuid,
      fiat_account_id: funded.card.fiat_account.id,
      id: funded.card.id,
    })
  })
  afterAll(() => app?.close())

  /** Every balance and how many entries the ledger holds: what must not move. */
  const money = async () => {
    const balances = await sql<{ account_id: string; currency_uuid: string; balance: string }>`
      select account_id, currency_uuid, balance_minor::text as balance from account_balances
      order by account_id, currency_uuid`.execute(app.db)
    const entries = await sql<{
      n: number
    }>`select count(*)::int as n from journal_entries`.execute(app.db)
    return { balances: balances.rows, entries: entries.rows[0]?.n }
  }

  it('answers every operation’s malformed requests with a 4xx problem, never a 5xx, and moves no money', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Parameter[]
            requestBody?: { content?: Record<string, { schema: Schema }> }
          }
        >
      >
    }>()
    const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema,
      })),
    )
    expect(operations.length).toBeGreaterThan(80)
    const before = await money()

    const failures: string[] = []
    let sent = 0
    for (const operation of operations) {
      const auth = operation.path.startsWith('/api/v1/')
        ? { authorization: token }
        : { authorization: `Bearer ${token}` }
      for (const fuzz of casesOf(operation, realIds)) {
        const requestHeaders: Record<string, string> = { ...headers(auth), ...fuzz.headers }
        if (fuzz.contentType === null) delete requestHeaders['content-type']
        else if (fuzz.contentType) requestHeaders['content-type'] = fuzz.contentType
        const response = await app.inject({
          method: operation.method as 'GET',
          url: fuzz.url,
          headers: requestHeaders,
          ...(fuzz.payload !== undefined &&
            operation.method !== 'GET' && { payload: fuzz.payload }),
        })
        sent++
        const fault = judge(response)
        if (fault) failures.push(`${operation.method} ${operation.path} [${fuzz.what}]: ${fault}`)
      }
    }

    expect(failures.slice(0, 30), `${failures.length} of ${sent} answers were wrong`).toEqual([])
    expect(sent).toBeGreaterThan(3_000)
    expect(await money()).toEqual(before)
    await expectLedgerInvariants(app)
  }, 300_000)
})

/** What is wrong with an answer to a malformed request, if anything. */
function judge(response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`
  if (response.statusCode < 400) return undefined
  const type = String(response.headers['content-type'] ?? '')
  if (!type.startsWith('application/problem+json')) {
    return `${response.statusCode} as ${type || 'no content type'}: ${response.body.slice(0, 120)}`
  }
  let problem: { status?: unknown; code?: unknown }
  try {
    problem = JSON.parse(response.body)
  } catch {
    return `${response.statusCode} with a body that is not JSON`
  }
  if (typeof problem.code !== 'string' || problem.code === '') return 'a problem without a code'
  if (problem.status !== response.statusCode) return `status ${String(problem.status)} in the body`
  return undefined
}

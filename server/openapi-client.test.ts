import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { OPERATION_IDS } from './infra/operation-ids.ts'
import {
  bearer,
  createTestApp,
  createWallet,
  describeServer,
  headers,
  signUp,
} from './test-support.ts'

interface Operation {
  operationId?: string
  security?: Record<string, string[]>[]
}
interface Document {
  servers?: { url: string }[]
  paths: Record<string, Record<string, Operation>>
}

/**
 * Issue 18: /api/openapi.json is a document a client is generated from. `npm test`
 * lints it with Redocly CLI (redocly.yaml); here a typed client is generated from it
 * with openapi-typescript, and code calling the API by its operation names compiles.
 */
describeServer('the OpenAPI document as a client’s source', () => {
  let app: FastifyInstance
  let document: Document
  beforeAll(async () => {
    app = await createTestApp()
    document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>()
  })
  afterAll(() => app?.close())

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        ...operation,
      })),
    )

  it('names every operation once, in camelCase, from the one table (none left over in it)', () => {
    const named = operations().map((operation) => [operation.key, operation.operationId])
    expect(named.filter(([, id]) => !id)).toEqual([])
    expect(Object.fromEntries(named)).toEqual(OPERATION_IDS)
    const ids = named.map(([, id]) => id!)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/)
  })

  it('says what each call asks: nothing for a public one, its token (or a key) for the others', () => {
    const security = (key: string) => operations().find((operation) => operation.key === key)
    expect(operations().filter((operation) => !operation.security)).toEqual([])
    expect(security('POST /api/v2/auth/sign-in/password/email')?.security).toEqual([])
    expect(security('GET /api/v2/location/countries')?.security).toEqual([])
    expect(security('POST /api/sandbox/deposits')?.security).toEqual([])
    expect(security('GET /api/v2/wallets')?.security).toEqual([{ bearer: [] }, { apiKey: [] }])
    expect(security('GET /api/v1/orders')?.security).toEqual([{ raw: [] }, { apiKey: [] }])
    expect(security('POST /api/sandbox/kyc/decision')?.security).toEqual([
      { bearer: [] },
      { raw: [] },
    ])
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })])
  })

  it('has one path per shape: no two differ only in a parameter’s name, and none ends in a slash', () => {
    const paths = Object.keys(document.paths)
    const shapes = paths.map((path) => path.replace(/\{[^}]+\}/g, '{}'))
    expect(new Set(shapes).size).toBe(paths.length)
    expect(paths.filter((path) => path.endsWith('/'))).toEqual([])
    expect(Object.keys(document.paths['/api/v2/wallets/{wallet_uuid}/addresses/{chain}']!)).toEqual(
      ['post', 'get'],
    )
    expect(Object.keys(document.paths['/api/v2/fiat-accounts/{wallet_uuid}']!)).toEqual([
      'get',
      'post',
    ])
    expect(document.paths['/api/v1/orders/WITHDRAWAL_CRYPTO']?.post?.operationId).toBe(
      'placeCryptoWithdrawalOrder',
    )
  })

  it('every docs/product.md §7 path the document renames or leaves out still answers as docs/product.md §7 names it', async () => {
    const pair = await signUp(app)
    const v1 = headers({ authorization: pair.access_token })
    const v2 = headers(bearer(pair.access_token))
    const wallet = (await createWallet(app, pair.access_token)).uuid
    const calls: [string, string, Record<string, string>][] = [
      ['GET', '/api/v1/exchange/', v1],
      ['GET', '/api/v1/issuing/transactions/', v1],
      ['GET', `/api/v2/wallets/${wallet}/addresses/ethereum`, v2],
      ['GET', `/api/v2/fiat-accounts/${wallet}`, v2],
    ]
    for (const [method, url, callHeaders] of calls) {
      const response = await app.inject({ method: method as 'GET', url, headers: callHeaders })
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200)
    }
  })

  // A whole TypeScript program over the generated document: 20–35 s on a busy 2-core runner.
  it('generates a typed client whose calls by operation name compile, and a wrong name does not', async () => {
    const types = astToString(await openapiTS(document as never))
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'))
    try {
      writeFileSync(join(dir, 'api.ts'), types)
      writeFileSync(
        join(dir, 'use.ts'),
        `import type { operations } from './api'
type Ok<Name extends keyof operations, Status extends keyof operations[Name]['responses']> =
  operations[Name]['responses'][Status] extends { content: { 'application/json': infer Body } }
    ? Body
    : never

export const walletId = (wallets: Ok<'listWallets', 200>): string => wallets.data[0]!.uuid
export const chain: operations['listAddresses']['parameters']['path']['chain'] = 'ethereum'
export const order: operations['placeExchangeOrder']['requestBody'] = {
  content: { 'application/json': { quote_id: '00000000-0000-4000-8000-000000000000' } },
}
export const signIn: NonNullable<operations['signInWithEmail']['requestBody']>['content']['application/json'] = {
  email: 'a@example.com',
  password: 'secret',
}
// @ts-expect-error The document names no such operation.
export type Missing = operations['getWallets']
`,
      )
      const program = ts.createProgram([join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      })
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      expect(errors).toEqual([])
      // The generated names are the document's.
      expect(types).toContain('listWallets: {')
      expect(types).toContain('placeCryptoWithdrawalOrder: {')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

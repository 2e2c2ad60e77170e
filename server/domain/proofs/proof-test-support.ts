import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { MyProof, ProofKey } from '../../../contract/proofs.ts'
import type { Wallet } from '../../../contract/wallets.ts'
import { bearer, createTenant, headers, signUp } from '../../test-support.ts'
import { credit } from '../ledger/ledger-test-support.ts'
import { type WalletAccounts, walletAccounts } from '../ledger/service.ts'

/** Fixed catalogue uuids (migration 0004) beyond ledger-test-support's. */
export const BTC = '68e31acb-683c-4237-a1d1-50edfa265bdf'
export const USDT_ETHEREUM = '2e56e676-1ddf-47f3-8f7f-3b736ad1e971'

/** A tenant of the test's own, with a proof key: its proofs meet no other test's people. */
export async function tenantWithKey(app: FastifyInstance): Promise<string> {
  const tenantId = await createTenant(app)
  await app.proofs.keys.ensure(tenantId)
  return tenantId
}

export interface Person {
  token: string
  on: Record<string, string>
  wallet: Wallet
  accounts: WalletAccounts
  userId: string
}

/** A person signed up in `tenantId` (verified), with their starter Personal wallet. */
export async function person(app: FastifyInstance, tenantId: string): Promise<Person> {
  const on = headers({ 'x-tenant-id': tenantId })
  const pair = await signUp(app, { headers: on })
  const list = await app.inject({
    method: 'GET',
    url: '/api/v2/wallets',
    headers: { ...on, ...bearer(pair.access_token) },
  })
  const wallet = list.json<{ data: Wallet[] }>().data[0]!
  const accounts = (await walletAccounts(app.db, tenantId, wallet.uuid))!
  const user = await app.inject({
    method: 'GET',
    url: '/api/v2/user',
    headers: { ...on, ...bearer(pair.access_token) },
  })
  return { token: pair.access_token, on, wallet, accounts, userId: user.json<{ id: string }>().id }
}

/** Money from outside into one of the person's accounts (a settled deposit, a hold, a pending one). */
export const fund = (
  app: FastifyInstance,
  tenantId: string,
  account: string,
  currency: string,
  amount: bigint,
) => credit(app.db, tenantId, account, currency, amount)

/** A fiat account of the person's wallet, and its ledger sub-account. */
export async function fiatAccountOf(app: FastifyInstance, someone: Person, programId: string) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v2/fiat-accounts/${someone.wallet.uuid}`,
    headers: { ...someone.on, ...bearer(someone.token) },
    payload: { program_id: programId },
  })
  expect(response.statusCode, response.body).toBe(201)
  const { id } = response.json<{ id: string }>()
  const row = await app.db
    .selectFrom('fiat_accounts')
    .select('ledger_account_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { id, ledgerAccount: row.ledger_account_id }
}

/** GET /api/v2/proofs/latest/mine as the person. */
export function mine(app: FastifyInstance, someone: Person) {
  return app.inject({
    method: 'GET',
    url: '/api/v2/proofs/latest/mine',
    headers: { ...someone.on, ...bearer(someone.token) },
  })
}

export async function myProof(app: FastifyInstance, someone: Person): Promise<MyProof> {
  const response = await mine(app, someone)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<MyProof>()
}

/** GET /api/proofs/{tenant_id}/key, with no headers at all: anyone may. */
export async function publicKey(app: FastifyInstance, tenantId: string): Promise<ProofKey> {
  const response = await app.inject({ method: 'GET', url: `/api/proofs/${tenantId}/key` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<ProofKey>()
}

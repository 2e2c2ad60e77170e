import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { SandboxSepaCredit, SandboxSepaCreditBody } from '../../../contract/fiat-accounts.ts'
import { Problem } from '../../../contract/problem.ts'
import type { ProblemCode } from '../../../contract/problem-codes.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import { receiveSepaCredit, SepaCreditError } from './sepa-credits.ts'

const unprocessable = (code: ProblemCode, field: string, message: string) =>
  new ProblemError(422, code, message, {
    title: 'Unprocessable Content',
    errors: [{ field: `/body/${field}`, message }],
  })

const toProblem = (error: unknown) => {
  if (!(error instanceof SepaCreditError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'IBAN_UNKNOWN':
      return unprocessable(failure.kind, 'iban', 'No account has this IBAN.')
    case 'CURRENCY_MISMATCH':
      return unprocessable(failure.kind, 'currency', `The account takes ${failure.expected}.`)
    case 'INVALID_AMOUNT':
      return unprocessable(
        failure.kind,
        'amount',
        `The amount must be above 0, with at most ${failure.decimals} decimal places.`,
      )
    case 'ACCOUNT_UNAVAILABLE':
      return new ProblemError(
        409,
        failure.kind,
        `The account is ${failure.status}: the bank sends the credit back.`,
      )
    case 'CREDIT_CONFLICT':
      return new ProblemError(
        409,
        'IDEMPOTENCY_CONFLICT',
        'This end-to-end id (or idempotency key) was used for a different credit.',
      )
    default:
      return assertNever(failure)
  }
}

/**
 * /api/sandbox/sepa-credits: the sandbox bank reports a SEPA credit to a fiat
 * account's own IBAN; the account is credited at once.
 */
export default async function sandboxSepaCreditRoutes(app: FastifyInstance) {
  // The outside party may name a tenant; read by the same hook as every API route's.
  app.addHook('onRequest', app.readTenant)
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/sepa-credits',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Simulate a SEPA credit to a fiat account’s IBAN',
        description:
          'The IBAN of a fiat account (`bank_details.iban`) is credited `amount` at once: ' +
          'the account’s balance, a DEPOSIT record in its transactions and a deposit item in ' +
          'the activity feed, from `sender_name`. 422 IBAN_UNKNOWN, CURRENCY_MISMATCH, ' +
          'INVALID_AMOUNT name the field; an account not ACTIVE is 409 ACCOUNT_UNAVAILABLE ' +
          '(nothing credited). The same `end_to_end_id` (or Idempotency-Key) again answers the ' +
          'first credit; with a different IBAN or amount, 409 IDEMPOTENCY_CONFLICT. No token; ' +
          'X-Tenant-Id is optional and, when sent, must be the account’s tenant.',
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
        }),
        body: SandboxSepaCreditBody,
        response: { 201: SandboxSepaCredit, 409: Problem, 422: Problem },
      },
    },
    async (request, reply) => {
      const body = request.body
      const credit = await translateErrors(
        receiveSepaCredit(app.db, {
          tenantId: request.tenantId || undefined,
          iban: body.iban,
          amount: body.amount,
          currency: body.currency,
          senderName: body.sender_name,
          senderIban: body.sender_iban,
          remittance: body.remittance,
          endToEndId: body.end_to_end_id ?? request.headers['idempotency-key'],
        }),
        toProblem,
      )
      return reply.code(201).send(credit)
    },
  )
}

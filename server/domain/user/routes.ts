import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { User, UserData, UserDataPatch } from '../../../contract/user.ts'
import { assertNever, ProblemError, translateErrors } from '../../infra/problem.ts'
import type { Owner } from '../owner.ts'
import { UserError } from './errors.ts'

/** The one switch from user failures to HTTP answers. */
const toProblem = (error: unknown) => {
  if (!(error instanceof UserError)) return undefined
  const failure = error.failure
  switch (failure.kind) {
    case 'USER_NOT_FOUND':
      return new ProblemError(404, failure.kind, 'The signed-in user no longer exists.')
    // The same answer as a body that fails its schema (infra/errors.ts), so the
    // app handles one shape of 422 whichever check caught the field.
    case 'USER_DATA_INVALID':
      return new ProblemError(
        422,
        'VALIDATION_FAILED',
        failure.errors.map((e) => `${e.field} ${e.message}`).join('; '),
        { title: 'Unprocessable Content', errors: failure.errors },
      )
    // Worded as KYC's refusal of the same country (kyc/routes.ts), on this body's field.
    case 'COUNTRY_NOT_SUPPORTED': {
      const list = failure.supported.join(', ')
      return new ProblemError(422, failure.kind, `This service takes addresses in ${list} only.`, {
        errors: [{ field: '/body/address/country', message: `One of: ${list}.` }],
      })
    }
    default:
      return assertNever(failure)
  }
}

const problems = { 401: Problem, 404: Problem, 423: Problem }

export default async function userRoutes(app: FastifyInstance) {
  const service = app.services.users
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const owner = (request: { auth: Owner }) => request.auth

  api.get(
    '/user',
    {
      schema: {
        tags: ['user'],
        summary: 'The signed-in user',
        response: { 200: User, ...problems },
      },
    },
    (request) => translateErrors(service.getUser(owner(request), request.sessionUser), toProblem),
  )

  api.get(
    '/user/user-data',
    {
      schema: {
        tags: ['user'],
        summary: 'The signed-in user’s profile data',
        response: { 200: UserData, ...problems },
      },
    },
    (request) => translateErrors(service.getUserData(owner(request)), toProblem),
  )

  api.patch(
    '/user/user-data',
    {
      schema: {
        tags: ['user'],
        summary: 'Change the signed-in user’s profile data',
        description:
          'Only the fields sent change; null clears one. An address is replaced whole. ' +
          'Beyond the schema: date_of_birth not in the future and 18 to 120 years ago, ' +
          'address.country one of GET /location/countries, names and address lines not blank ' +
          '(they are trimmed). Every bad field is listed in one 422 VALIDATION_FAILED. ' +
          'Then address.country must be one the tenant serves (its supported_countries; ' +
          'none listed: every country) or the country already saved, else 422 ' +
          'COUNTRY_NOT_SUPPORTED naming /body/address/country.',
        body: UserDataPatch,
        response: { 200: UserData, ...problems, 422: Problem },
      },
    },
    (request) => translateErrors(service.updateUserData(owner(request), request.body), toProblem),
  )
}

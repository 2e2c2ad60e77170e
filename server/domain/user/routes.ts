import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { User, UserData } from '../../../contract/user.ts'
import { ProblemError, translateErrors } from '../../infra/problem.ts'
import { UserNotFoundError, UserService } from './service.ts'

const toProblem = (error: unknown) =>
  error instanceof UserNotFoundError
    ? new ProblemError(404, 'USER_NOT_FOUND', 'The signed-in user no longer exists.')
    : undefined

export default async function userRoutes(app: FastifyInstance) {
  const service = new UserService(app.db)
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const owner = (request: { auth: { tenantId: string; userId: string } }) => request.auth

  api.get(
    '/user',
    {
      schema: {
        tags: ['user'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: User, 401: Problem, 404: Problem },
      },
    },
    (request) => translateErrors(service.getUser(owner(request)), toProblem),
  )

  api.get(
    '/user/user-data',
    {
      schema: {
        tags: ['user'],
        summary: 'The signed-in user’s profile data',
        security: [{ bearer: [] }],
        response: { 200: UserData, 401: Problem, 404: Problem },
      },
    },
    (request) => translateErrors(service.getUserData(owner(request)), toProblem),
  )
}

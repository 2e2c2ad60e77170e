import type { FastifyReply } from 'fastify'
import { Problem } from '../../../contract/problem.ts'
import { type ProblemError, translateErrors } from '../../infra/problem.ts'

/*
 * What the developer area's routes share, API keys (developer/routes.ts) and
 * webhook endpoints (events/routes.ts) alike.
 */

/** The answers every developer route may give besides its own. */
export const developerProblems = { 401: Problem, 403: Problem, 422: Problem, 423: Problem }

/** Listed under "developer" in the OpenAPI document. */
export const developerSchema = { tags: ['developer'] }

/** Answers 201 with what `work` made; its failures become the problems `toProblem` names. */
export async function sendCreated<T>(
  reply: FastifyReply,
  work: Promise<T>,
  toProblem: (error: unknown) => ProblemError | undefined,
) {
  return reply.code(201).send(await translateErrors(work, toProblem))
}

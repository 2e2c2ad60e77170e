import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from './problem.ts'

/**
 * The app sends `Content-Type: application/json` on every request (SPEC.md §7),
 * GET and DELETE included. An empty body is therefore "no body", not malformed
 * JSON; anything else must parse.
 */
export default fp(
  async function json(app: FastifyInstance) {
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_request, body, done) => {
        const text = (body as string).trim()
        if (text === '') return done(null, undefined)
        try {
          done(null, JSON.parse(text))
        } catch {
          done(new ProblemError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.'))
        }
      },
    )
  },
  { name: 'json' },
)

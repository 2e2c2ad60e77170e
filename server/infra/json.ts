import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ProblemError } from './problem.ts'

/**
 * The app sends `Content-Type: application/json` on every request (docs/product.md §7),
 * GET and DELETE included. An empty body is therefore "no body", not malformed
 * JSON; anything else must parse.
 *
 * No string of a request — body, query or path, at any depth, keys included —
 * may hold U+0000: PostgreSQL's text and jsonb cannot store it, so it would
 * reach the database and come back as a 500. It is refused here, once for
 * every route, as the schema's own 422 would word it.
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

    app.addHook('preValidation', async (request) => {
      const parts = { body: request.body, querystring: request.query, params: request.params }
      for (const [part, value] of Object.entries(parts)) {
        const field = nulField(value, `/${part}`)
        if (field === undefined) continue
        const message = 'must not contain the NUL character (U+0000)'
        throw new ProblemError(422, 'VALIDATION_FAILED', `${field} ${message}`, {
          title: 'Unprocessable Content',
          errors: [{ field, message }],
        })
      }
    })
  },
  { name: 'json' },
)

/**
 * The JSON pointer (below `base`) of the first string or key holding U+0000.
 * Walked with a stack, not recursion: a 1 MB body can nest deeper than the
 * call stack goes.
 */
export function nulField(value: unknown, base: string): string | undefined {
  const pending: [unknown, string][] = [[value, base]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, pointer] = next
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pointer
      continue
    }
    if (item === null || typeof item !== 'object') continue
    const entries = Object.entries(item)
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
      if (key.includes('\u0000')) return at
      pending.push([child, at])
    }
  }
  return undefined
}

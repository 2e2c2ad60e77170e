import type { FastifyRequest } from 'fastify'

/**
 * Which order placements need the second look (issue 21): money leaving the
 * person's wallets — a withdrawal to a bank or a chain, internal transfers to
 * someone else included. Exchanges, deposits and card top-ups stay between
 * the person's own accounts and do not.
 */
export const isPayout = (request: FastifyRequest) =>
  (request.params as { order_type?: string }).order_type?.startsWith('WITHDRAWAL_') === true

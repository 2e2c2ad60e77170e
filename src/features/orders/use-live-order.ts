import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { moneyMoved } from '../../queries/money-moved.ts'
import { isFinal } from './labels.ts'
import { orderQuery } from './queries.ts'

/**
 * One order, asked about until it reaches a final status (orderQuery). When
 * it gets there while on screen, balances and histories are read again, card
 * accounts' too: the held money has moved out, come back or arrived.
 */
export function useLiveOrder(id: string) {
  const queryClient = useQueryClient()
  const order = useQuery(orderQuery(id))
  const status = order.data?.status
  const seen = useRef(status)
  useEffect(() => {
    const before = seen.current
    seen.current = status
    if (before && status && !isFinal(before) && isFinal(status)) {
      void moneyMoved(queryClient)
    }
  }, [status, queryClient])
  return order
}

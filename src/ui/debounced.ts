import { useEffect, useState } from 'react'

/** `value` once it has stopped changing for `delay` ms: what a search or a look-up asks the server about. */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay)
    return () => clearTimeout(timer)
  }, [value, delay])
  return settled
}

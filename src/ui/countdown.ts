import { useEffect, useState } from 'react'

/**
 * Whole seconds until `until` (a time in ms), re-rendering once a second
 * while it counts down; 0 once it has passed, or when there is nothing to wait for.
 */
export function useSecondsLeft(until: number | undefined): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    // Re-read the clock when the target moves: the first render may be stale.
    setNow(Date.now())
    if (until === undefined || until <= Date.now()) return
    const timer = setInterval(() => {
      const current = Date.now()
      setNow(current)
      if (current >= until) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
  }, [until])
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000))
}

import { describe, expect, it } from 'vitest'
import {
  afterLogout,
  afterSignIn,
  LOOP_GUARD_KEY,
  LOOP_WINDOW_MS,
  noLoop,
  readLoopGuard,
  writeLoopGuard,
} from './telegram-loop-guard.ts'

const T0 = 1_700_000_000_000

describe('the Telegram sign-in loop guard', () => {
  it('lets one logout soon after a sign-in through: the next sign-in may well work', () => {
    const { guard, stop } = afterLogout(afterSignIn(noLoop, T0), T0 + 1000)
    expect(stop).toBe(false)
    expect(guard.logouts).toBe(1)
  })

  it('stops at the second logout within the window after an automatic sign-in', () => {
    let guard = afterSignIn(noLoop, T0)
    guard = afterLogout(guard, T0 + 500).guard
    guard = afterSignIn(guard, T0 + 1500)
    expect(afterLogout(guard, T0 + 1500 + LOOP_WINDOW_MS - 1).stop).toBe(true)
  })

  it('does not count a logout that comes after the window: the session ran its course', () => {
    let guard = afterSignIn(noLoop, T0)
    guard = afterLogout(guard, T0 + 500).guard
    guard = afterSignIn(guard, T0 + 1000)
    const late = afterLogout(guard, T0 + 1000 + LOOP_WINDOW_MS)
    expect(late).toEqual({ guard: { signedInAt: T0 + 1000, logouts: 0 }, stop: false })
  })

  it('does not stop a logout with no sign-in before it', () => {
    expect(afterLogout({ logouts: 5 }, T0).stop).toBe(false)
  })

  it('keeps its state in storage, and reads a broken entry as no loop', () => {
    const map = new Map<string, string>()
    const storage = {
      getItem: (key: string) => map.get(key) ?? null,
      setItem: (key: string, value: string) => void map.set(key, value),
    }
    writeLoopGuard(storage, { signedInAt: T0, logouts: 1 })
    expect(readLoopGuard(storage)).toEqual({ signedInAt: T0, logouts: 1 })
    map.set(LOOP_GUARD_KEY, '{nope')
    expect(readLoopGuard(storage)).toEqual(noLoop)
    expect(readLoopGuard(undefined)).toEqual(noLoop)
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { DEPTH_KEY, trackHistoryDepth } from './history-depth.ts'

/** history.back() in happy-dom settles asynchronously: wait for its popstate. */
const back = () =>
  new Promise<void>((resolve) => {
    addEventListener('popstate', () => resolve(), { once: true })
    history.back()
  })

describe('trackHistoryDepth', () => {
  let depths: number[]
  let stop: () => void

  beforeEach(() => {
    history.replaceState(null, '', '/')
    depths = []
    stop = trackHistoryDepth((depth) => depths.push(depth))
  })
  afterEach(() => stop())

  it('starts at 0 and stamps the first entry', () => {
    expect(depths).toEqual([0])
    expect(history.state).toEqual({ [DEPTH_KEY]: 0 })
  })

  it('goes one deeper for each navigation and back up with history.back()', async () => {
    navigate('/wallets/1')
    navigate('/wallets/1/transactions/2')
    expect(depths).toEqual([0, 1, 2])
    await back()
    expect(depths.at(-1)).toBe(1)
    await back()
    expect(depths.at(-1)).toBe(0)
  })

  it('keeps the depth on a replace, and the state the app set', () => {
    navigate('/send')
    navigate('/send?step=review', { replace: true, state: { review: true } })
    expect(depths).toEqual([0, 1])
    expect(history.state).toEqual({ review: true, [DEPTH_KEY]: 1 })
  })

  it('merges into the state of a pushed entry', () => {
    navigate('/send?step=review', { state: { review: true } })
    expect(history.state).toEqual({ review: true, [DEPTH_KEY]: 1 })
  })

  it('picks up the depth a reloaded entry still carries', () => {
    navigate('/wallets/1')
    stop()
    depths = []
    stop = trackHistoryDepth((depth) => depths.push(depth))
    expect(depths).toEqual([1])
  })
})

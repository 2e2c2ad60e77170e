import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Problem } from '../../contract/problem.ts'
import { ApiError } from '../net/api.ts'
import {
  forgetConfirmations,
  isDefiniteRefusal,
  pendingConfirmation,
  useConfirmOnce,
} from './confirm-once.ts'

afterEach(() => sessionStorage.clear())

const anything = (_body: unknown): _body is unknown => true
const answer = (status: number) =>
  new ApiError(status, { type: 'about:blank', title: 'x', status, code: 'BAD_REQUEST' } as Problem)

describe('useConfirmOnce', () => {
  it('keeps one request id per choice, and a new one when the choice changes', () => {
    const { result, rerender } = renderHook(({ choice }) => useConfirmOnce('test', choice), {
      initialProps: { choice: 'card A' },
    })
    const first = result.current.requestId
    rerender({ choice: 'card A' })
    expect(result.current.requestId).toBe(first)
    rerender({ choice: 'card B' })
    expect(result.current.requestId).not.toBe(first)
  })

  it('latches while a confirmation is in flight: a second tap sends nothing', () => {
    const { result } = renderHook(() => useConfirmOnce('test', 'card A'))
    expect(result.current.start({ n: 1 })).toBe(true)
    expect(result.current.start({ n: 1 })).toBe(false)
    act(() => result.current.finish(new TypeError('Failed to fetch')))
    expect(result.current.start({ n: 1 })).toBe(true)
  })

  it('survives a reload until an answer settles it: the same choice finds the same key', () => {
    const before = renderHook(() => useConfirmOnce('test', 'card A'))
    before.result.current.start({ n: 1 })
    const key = before.result.current.requestId
    before.unmount()
    expect(pendingConfirmation('test', anything)).toEqual({
      choice: 'card A',
      request_id: key,
      body: { n: 1 },
    })

    const after = renderHook(() => useConfirmOnce('test', 'card A'))
    expect(after.result.current.requestId).toBe(key)
    // Another choice after the reload is another request.
    expect(renderHook(() => useConfirmOnce('test', 'card B')).result.current.requestId).not.toBe(
      key,
    )
  })

  it.each([
    ['a success', undefined, false],
    ['a refusal (422)', answer(422), false],
    ['a lost answer', new TypeError('Failed to fetch'), true],
    ['a 503', answer(503), true],
    ['a 429', answer(429), true],
  ])('after %s the stored confirmation is kept: %s → %s', (_name, error, kept) => {
    const { result } = renderHook(() => useConfirmOnce('test', 'card A'))
    result.current.start({ n: 1 })
    result.current.finish(error)
    expect(pendingConfirmation('test', anything) !== undefined).toBe(kept)
  })

  it('forgets every scope’s confirmation at logout, and nothing else of the tab', () => {
    renderHook(() => useConfirmOnce('cards.issue', 'card A')).result.current.start({})
    renderHook(() => useConfirmOnce('orders', 'quote 1')).result.current.start({})
    sessionStorage.setItem('telegram/session-user', '42')
    forgetConfirmations()
    expect(pendingConfirmation('cards.issue', anything)).toBeUndefined()
    expect(pendingConfirmation('orders', anything)).toBeUndefined()
    expect(sessionStorage.getItem('telegram/session-user')).toBe('42')
  })
})

describe('which answers settle whether it was done', () => {
  it.each([
    [answer(422), true],
    [answer(409), true],
    [answer(404), true],
    [answer(401), true],
    [answer(429), false],
    [answer(408), false],
    [answer(500), false],
    [answer(503), false],
    [new TypeError('Failed to fetch'), false],
    [new DOMException('late', 'TimeoutError'), false],
  ])('%#: %s → %s', (error, definite) => {
    expect(isDefiniteRefusal(error)).toBe(definite)
  })
})

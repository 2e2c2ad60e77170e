import { describe, expect, it } from 'vitest'
import { memoryLocks } from './locks.ts'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

/** A task that notes when it starts and ends, with a pause between. */
const recorded = (log: string[], name: string) => async () => {
  log.push(`${name} start`)
  await tick()
  log.push(`${name} end`)
  return name
}

describe('memoryLocks', () => {
  it('runs tasks under one name one at a time, in the order they asked', async () => {
    const locks = memoryLocks()
    const log: string[] = []
    const results = await Promise.all([
      locks.request('a', recorded(log, '1')),
      locks.request('a', recorded(log, '2')),
      locks.request('a', recorded(log, '3')),
    ])
    expect(results).toEqual(['1', '2', '3'])
    expect(log).toEqual(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end'])
  })

  it('lets tasks under different names run side by side', async () => {
    const locks = memoryLocks()
    const log: string[] = []
    await Promise.all([
      locks.request('a', recorded(log, 'a')),
      locks.request('b', recorded(log, 'b')),
    ])
    expect(log.slice(0, 2)).toEqual(['a start', 'b start'])
  })

  it('releases the lock when a task fails', async () => {
    const locks = memoryLocks()
    await expect(
      locks.request('a', async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    await expect(locks.request('a', async () => 'next')).resolves.toBe('next')
  })
})

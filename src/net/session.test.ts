import { describe, expect, it, vi } from 'vitest'
import type { Tokens, TokenVault } from '../storage/token-vault.ts'
import { launchSessions, SESSION_USER_KEY } from './session.ts'

const A_TOKENS: Tokens = { access_token: 'access-of-a', refresh_token: 'refresh-of-a' }

function memoryVault(tokens?: Tokens): TokenVault & { tokens: Tokens | undefined } {
  const vault = {
    tokens,
    read: async () => vault.tokens,
    write: async (next: Tokens) => {
      vault.tokens = next
    },
    clear: async () => {
      vault.tokens = undefined
    },
  }
  return vault
}

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries))
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  }
}

/** A device where Telegram user `owner` (if any) left a session behind. */
function device(owner: string | undefined, tokens: Tokens | null = A_TOKENS) {
  const vault = memoryVault(tokens ?? undefined)
  const storage = memoryStorage(owner ? { [SESSION_USER_KEY]: owner } : {})
  const forgetQueries = vi.fn(async () => {})
  return {
    vault,
    storage,
    forgetQueries,
    sessions: launchSessions({ vault, storage, forgetQueries }),
  }
}

describe('launchSessions', () => {
  it('keeps the session of the same Telegram user, so an offline start works', async () => {
    const d = device('100')
    expect(await d.sessions.check('100')).toBe(true)
    expect(await d.sessions.claim('100')).toBe(true)
    expect(d.vault.tokens).toEqual(A_TOKENS)
    expect(d.forgetQueries).not.toHaveBeenCalled()
  })

  it('wipes another Telegram user’s tokens and cached answers, and marks the next session as the launch user’s', async () => {
    const d = device('100')
    expect(await d.sessions.claim('200')).toBe(false)
    expect(d.vault.tokens).toBeUndefined()
    expect(d.forgetQueries).toHaveBeenCalledOnce()
    expect(d.storage.map.get(SESSION_USER_KEY)).toBe('200')
  })

  it('wipes a session whose Telegram user is not known (made before, or on the web)', async () => {
    const d = device(undefined)
    expect(await d.sessions.check('200')).toBe(false)
    expect(d.vault.tokens).toBeUndefined()
    expect(d.forgetQueries).toHaveBeenCalledOnce()
  })

  it('never reuses a session when the launch names no user', async () => {
    const d = device('100')
    expect(await d.sessions.claim(undefined)).toBe(false)
    expect(d.vault.tokens).toBeUndefined()
    expect(d.storage.map.has(SESSION_USER_KEY)).toBe(false)
  })

  it('has no session of the launch user when only their mark is left, without wiping anything', async () => {
    const d = device('100', null)
    expect(await d.sessions.claim('100')).toBe(false)
    expect(d.forgetQueries).not.toHaveBeenCalled()
    expect(d.storage.map.get(SESSION_USER_KEY)).toBe('100')
  })

  it('does not take the new session for someone else’s once it is claimed', async () => {
    const d = device('100')
    await d.sessions.claim('200')
    await d.vault.write({ access_token: 'access-of-b' })
    expect(await d.sessions.check('200')).toBe(true)
    expect(d.vault.tokens).toEqual({ access_token: 'access-of-b' })
  })

  it('runs one wipe for checks that overlap', async () => {
    const d = device('100')
    const [first, second] = await Promise.all([d.sessions.check('200'), d.sessions.check('200')])
    expect([first, second]).toEqual([false, false])
    expect(d.forgetQueries).toHaveBeenCalledOnce()
  })

  it('forgets whose session it was at sign-out', async () => {
    const d = device('100')
    d.sessions.forget()
    expect(d.storage.map.has(SESSION_USER_KEY)).toBe(false)
  })
})

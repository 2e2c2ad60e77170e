import { IDBFactory } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openRememberingVault } from './remembering-vault.ts'
import { writeUnannounced } from './test-support.ts'
import { openTokenVault, type Tokens, VAULT_CHANGED, VAULT_CHANNEL } from './token-vault.ts'

const FIRST: Tokens = { access_token: 'access-1', refresh_token: 'refresh-1' }
const SECOND: Tokens = { access_token: 'access-2', refresh_token: 'refresh-2' }

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the vault (the page, the card-secrets worker)', () => {
  it('reads the database every time', async () => {
    const vault = openTokenVault()
    await vault.write(FIRST)
    await writeUnannounced(SECOND)
    expect(await vault.read()).toEqual(SECOND)
  })
})

describe("the remembering vault (the service worker's)", () => {
  it('answers from memory between changes, and from the database when asked for fresh', async () => {
    const vault = openRememberingVault()
    await vault.write(FIRST)
    await writeUnannounced(SECOND)
    expect(await vault.read()).toEqual(FIRST)
    expect(await vault.read({ fresh: true })).toEqual(SECOND)
    // The fresh read is what it remembers from then on.
    expect(await vault.read()).toEqual(SECOND)
  })

  it('remembers what it read, including that nothing is stored', async () => {
    const vault = openRememberingVault()
    expect(await vault.read()).toBeUndefined()
    await writeUnannounced(FIRST)
    expect(await vault.read()).toBeUndefined()
  })

  it("drops its copy when another context's write or clear is announced", async () => {
    const worker = openRememberingVault()
    const page = openTokenVault()
    await worker.write(FIRST)
    expect(await worker.read()).toEqual(FIRST)

    await page.write(SECOND)
    await vi.waitFor(async () => expect(await worker.read()).toEqual(SECOND))

    await page.clear()
    await vi.waitFor(async () => expect(await worker.read()).toBeUndefined())
  })

  it('keeps its own writes without reading them back', async () => {
    const vault = openRememberingVault()
    await vault.write(SECOND)
    await vault.clear()
    await writeUnannounced(FIRST)
    expect(await vault.read()).toBeUndefined()
  })

  it('keeps no copy of its own write when another context announced a change meanwhile', async () => {
    const vault = openRememberingVault()
    await vault.read()
    const writing = vault.write(FIRST)
    // Announced while the write is on its way; the other context's write lands after it.
    const other = new BroadcastChannel(VAULT_CHANNEL)
    other.postMessage(VAULT_CHANGED)
    other.close()
    await writeUnannounced(SECOND)
    await writing
    expect(await vault.read()).toEqual(SECOND)
  })

  it('never remembers where nothing could announce a change', async () => {
    vi.stubGlobal('BroadcastChannel', undefined)
    const vault = openRememberingVault()
    await vault.write(FIRST)
    await writeUnannounced(SECOND)
    expect(await vault.read()).toEqual(SECOND)
  })
})

import {
  openTokenVault,
  storedTokens,
  type Tokens,
  type TokenVault,
  VAULT_CHANGED,
  VAULT_CHANNEL,
} from './token-vault.ts'

/**
 * The service worker's vault: the tokens kept in memory between reads, so no
 * IndexedDB read stands in front of each API call. The worker is one per
 * origin, in front of every call of every tab, and itself the writer of nearly
 * every rotation (sign-in and refresh answers pass through it); any other
 * context's write or clear is announced on `VAULT_CHANNEL` and drops the copy.
 * Between that change and its announcement the copy can be stale: the proxy
 * reads `fresh` after a 401 and inside the refresh lock, so a stale token
 * costs one replay, never a second refresh. Without BroadcastChannel nothing
 * would tell it of a change, so it reads the database every time.
 */
export function openRememberingVault(): TokenVault {
  if (typeof BroadcastChannel !== 'function') return openTokenVault()
  const channel = new BroadcastChannel(VAULT_CHANNEL)
  const vault = openTokenVault(channel)
  let copy: { tokens: Tokens | undefined } | undefined
  // Bumped by every change, so a read that started before it cannot put the old tokens back.
  let generation = 0
  const forget = () => {
    generation++
    copy = undefined
  }
  channel.addEventListener('message', (event) => {
    if (event.data === VAULT_CHANGED) forget()
  })

  /**
   * Runs `change` and remembers `after`, unless another context announced a
   * change meanwhile: which of the two the database holds is then unknown,
   * and the next read asks it.
   */
  const changing = async (change: () => Promise<void>, after: Tokens | undefined) => {
    forget()
    const seen = generation
    await change()
    if (generation === seen) copy = { tokens: after }
  }

  return {
    async read({ fresh = false } = {}) {
      if (copy && !fresh) return copy.tokens
      const seen = generation
      const tokens = await vault.read()
      if (generation === seen) copy = { tokens }
      return tokens
    },
    write: (tokens) => changing(() => vault.write(tokens), storedTokens(tokens)),
    clear: () => changing(() => vault.clear(), undefined),
  }
}

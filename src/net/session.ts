import { openTokenVault } from '../storage/token-vault.ts'
import { netConfig } from './config.ts'

const vault = openTokenVault()

/** Whether tokens are stored; says nothing about whether they are still valid. */
export async function hasSession(): Promise<boolean> {
  return (await vault.read()) !== undefined
}

/**
 * Ends the session on the server when it can (best effort: the refresh token
 * may already be dead), then forgets the tokens.
 */
export async function signOut(): Promise<void> {
  const tokens = await vault.read()
  await vault.clear()
  if (!tokens?.refresh_token) return
  await fetch(`${netConfig.v2Base}/auth/sign-out`, {
    method: 'POST',
    body: JSON.stringify({ refresh_token: tokens.refresh_token }),
  }).catch(() => undefined)
}

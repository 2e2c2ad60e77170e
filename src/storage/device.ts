/**
 * What this device remembers outside any session: whether someone has been
 * signed in on it. A first visit is greeted "Welcome", a return "Welcome
 * back" (issue 27); home marks it, every sign-in ends there.
 */
const KEY = 'signedInBefore'

export function markSignedIn(): void {
  try {
    localStorage.setItem(KEY, '1')
  } catch {
    // Storage refused: the next visit is greeted as a first one, nothing worse.
  }
}

export function signedInBefore(): boolean {
  try {
    return localStorage.getItem(KEY) === '1'
  } catch {
    return false
  }
}

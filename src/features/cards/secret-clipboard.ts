/** How long a copied secret may stay on the clipboard. */
export const CLIPBOARD_CLEAR_MS = 30_000

let pending: ReturnType<typeof setTimeout> | undefined

/**
 * Copies a card secret, then empties the clipboard after CLIPBOARD_CLEAR_MS
 * if it still holds that secret. Where the clipboard cannot be read back
 * (Firefox, Safari without a gesture, permission refused) it is emptied
 * anyway: a card number left behind is worse than a lost clipboard.
 * The timer is not tied to the page: the number stays on the clipboard when
 * the page is left, so the clearing must happen all the same.
 */
export async function copySecret(text: string): Promise<void> {
  await navigator.clipboard.writeText(text)
  clearTimeout(pending)
  pending = setTimeout(() => {
    pending = undefined
    void clearIfStill(text)
  }, CLIPBOARD_CLEAR_MS)
}

async function clearIfStill(text: string): Promise<void> {
  let current: string | undefined
  try {
    current = await navigator.clipboard.readText()
  } catch {
    current = undefined
  }
  if (current !== undefined && current !== text) return
  await navigator.clipboard.writeText('').catch(() => undefined)
}

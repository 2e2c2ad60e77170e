/*
 * Handing a file to the person: saved by the browser (a link with
 * `download`), or shared where the device can share files (Web Share level
 * 2: phones, the installed app). Telegram's Mini App saves through its own
 * downloadFile instead (the page asks for a link Telegram can fetch).
 */

/** Whether this browser can share `file` through the system's share sheet. */
export function canShareFile(file?: File): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return false
  if (typeof navigator.canShare !== 'function') return false
  const probe = file ?? new File([''], 'statement.pdf', { type: 'application/pdf' })
  try {
    return navigator.canShare({ files: [probe] })
  } catch {
    return false
  }
}

/** Saves the file through a temporary object URL. */
export function saveFile(file: File): void {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = file.name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The click has started the download; the URL can go after it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** The share sheet with the file; false when the person closed it without sharing. */
export async function shareFile(file: File, title: string): Promise<boolean> {
  try {
    await navigator.share({ files: [file], title })
    return true
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return false
    throw error
  }
}

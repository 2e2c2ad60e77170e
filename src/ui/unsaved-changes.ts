import { useEffect } from 'react'

/**
 * While `dirty`, leaving asks first: closing or reloading the tab (the
 * browser's own prompt) and following a link inside the app (ours). The
 * link check runs in the capture phase, before the router's click handler.
 */
export function useUnsavedChangesGuard(dirty: boolean, question: string): void {
  useEffect(() => {
    if (!dirty) return
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
    }
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href]')
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return
      // Jumps within the page (the skip link) leave nothing behind.
      if (link.getAttribute('href')?.startsWith('#')) return
      if (!window.confirm(question)) {
        event.preventDefault()
        event.stopPropagation()
      }
    }
    window.addEventListener('beforeunload', beforeUnload)
    document.addEventListener('click', click, true)
    return () => {
      window.removeEventListener('beforeunload', beforeUnload)
      document.removeEventListener('click', click, true)
    }
  }, [dirty, question])
}

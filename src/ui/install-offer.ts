/**
 * The browser's offer to install the app (beforeinstallprompt), kept from the
 * page's first moment so it is not missed before a screen is drawn. What
 * makes it (src/ui/install-button.tsx) loads only where it is shown.
 */
export interface InstallOffer extends Event {
  prompt(): Promise<void>
  userChoice: Promise<unknown>
}

export const install: { offer?: InstallOffer | undefined } = {}
addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault()
  install.offer = event as InstallOffer
})
addEventListener('appinstalled', () => {
  install.offer = undefined
})

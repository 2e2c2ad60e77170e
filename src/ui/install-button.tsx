import { useEffect, useState } from 'react'
import { useI18n } from '../i18n/i18n.tsx'
import { Button } from './components.tsx'
import { install } from './install-offer.ts'

/** "Install app", while the browser offers it (src/ui/install-offer.ts): Profile's, and the shell's once. */
export function InstallButton() {
  const { t } = useI18n()
  const [offer, setOffer] = useState(install.offer)
  if (!offer) return null
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await offer.prompt()
        await offer.userChoice
        install.offer = undefined
        setOffer(undefined)
      }}
    >
      {t('pwa.install')}
    </Button>
  )
}

/** Whether this device was offered the install already: read once, when the shell first offers it. */
const KEY = 'installOffered'
let offeredBefore = false
try {
  offeredBefore = localStorage.getItem(KEY) === '1'
} catch {
  // Storage refused: offered again on the next visit, nothing worse.
}

/**
 * The shell's offer, at the foot of the screens of one visit — the first the
 * browser offers it in — and never again on this device: Profile keeps it.
 */
export default function InstallOnce() {
  useEffect(() => {
    try {
      localStorage.setItem(KEY, '1')
    } catch {
      // As above.
    }
  }, [])
  return offeredBefore ? null : <InstallButton />
}

import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { usePasskeySignIn } from './mutations.ts'
import { PasskeyError } from './passkey-error.tsx'
import { autofillSupported, cancelPasskeyRequest, passkeysSupported } from './webauthn.ts'

/**
 * Signing in with a passkey on the sign-in screen: a quiet request behind
 * the e-mail field (conditional UI: the browser lists the person's passkeys
 * among its suggestions), and a button for the browser's own sheet. Not in
 * Telegram, whose web view has no WebAuthn: there the Mini App signs in with
 * Telegram itself.
 */
export default function PasskeySignIn() {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const autofill = usePasskeySignIn()
  const modal = usePasskeySignIn()
  const [supported] = useState(passkeysSupported)
  const goHome = () => navigate(paths.home, { replace: true })

  // biome-ignore lint/correctness/useExhaustiveDependencies: one quiet request per visit of the screen
  useEffect(() => {
    let live = true
    void autofillSupported().then((yes) => {
      if (yes && live) autofill.mutate({ autofill: true }, { onSuccess: goHome })
    })
    return () => {
      live = false
      cancelPasskeyRequest()
    }
  }, [])

  if (!supported) return null
  return (
    <div className="stack passkey-sign-in">
      <Button
        variant="secondary"
        block
        busy={modal.isPending}
        onClick={() => modal.mutate({ autofill: false }, { onSuccess: goHome })}
      >
        {modal.isPending ? t('auth.passkey.signingIn') : t('auth.passkey.signIn')}
      </Button>
      <PasskeyError error={modal.error ?? autofill.error} />
    </div>
  )
}

import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import type { OtpSent } from '../../../contract/otp.ts'
import type { StepUpMethod } from '../../../contract/security.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { isTelegram } from '../../telegram/launch.ts'
import { useMiniApp } from '../../telegram/mini-app.tsx'
import { CodeEntry } from '../../ui/code-entry.tsx'
import { Alert, Button, Spinner } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import {
  enrolTelegramBiometrics,
  proveWithTelegramBiometrics,
  usePasskeyStepUp,
  useSendStepUpCode,
  useVerifyStepUpCode,
} from './mutations.ts'
import { PasskeyError } from './passkey-error.tsx'
import { stepUpQuery } from './queries.ts'
import { passkeysSupported } from './webauthn.ts'

interface Props {
  /** The methods the server named in its 403; the dialog reads the session's own list too. */
  methods: StepUpMethod[]
  /** true once the session holds a fresh proof; false when the person cancels. */
  onDone: (proven: boolean) => void
}

/**
 * The second look: asked in place when a sensitive call answered 403
 * STEP_UP_REQUIRED, then the call is made again (src/net/step-up.ts). A
 * passkey first where there is one, Telegram biometrics in the Mini App, a
 * one-time code to the person's own e-mail or phone always. A modal <dialog>:
 * focus stays inside, Escape cancels.
 */
export function StepUpDialog(props: Props) {
  const { t } = useI18n()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const status = useQuery(stepUpQuery())
  const [code, setCode] = useState<{ sent: OtpSent; at: number; sends: number } | undefined>()
  const send = useSendStepUpCode()
  const verify = useVerifyStepUpCode()
  const passkey = usePasskeyStepUp()
  const telegram = useTelegramBiometrics()

  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    dialog?.querySelector<HTMLElement>('[data-title]')?.focus()
  }, [])

  const methods = status.data?.methods ?? props.methods
  const canPasskey = methods.includes('passkey') && passkeysSupported()
  // Offered before the first use too: the first proof enrols the device (useTelegramBiometrics).
  const canTelegram = isTelegram() && telegram.ready
  const canCode = methods.includes('otp')
  const busy = send.isPending || verify.isPending || passkey.isPending || telegram.busy

  const sendCode = () =>
    send.mutate(undefined, {
      onSuccess: (sent) =>
        setCode((now) => ({ sent, at: Date.now(), sends: (now?.sends ?? 0) + 1 })),
    })

  const cancel = () => {
    if (!busy) props.onDone(false)
  }

  const usePasskey = () =>
    passkey.mutate(undefined, {
      onSuccess: () => props.onDone(true),
    })

  return (
    <dialog
      ref={ref}
      className="dialog step-up-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        cancel()
      }}
    >
      <div className="stack">
        <h2 id={titleId} data-title tabIndex={-1}>
          {t('stepUp.title')}
        </h2>
        <p>{t('stepUp.lead')}</p>
        {status.isPending && <Spinner label={t('stepUp.loading')} />}
        {code ? (
          <CodeEntry
            level={3}
            sent={code.sent}
            sentAt={code.at}
            sends={code.sends}
            verifying={verify.isPending}
            resending={send.isPending}
            error={verify.error ?? send.error}
            onVerify={(token) => verify.mutate(token, { onSuccess: () => props.onDone(true) })}
            onResend={sendCode}
            onBack={() => setCode(undefined)}
            backLabel={t('stepUp.otherWay')}
          />
        ) : (
          !status.isPending && (
            <div className="stack">
              {canPasskey && (
                <Button block busy={passkey.isPending} onClick={usePasskey} disabled={busy}>
                  {t('stepUp.usePasskey')}
                </Button>
              )}
              {canTelegram && (
                <Button
                  block
                  busy={telegram.busy}
                  disabled={busy}
                  onClick={() => telegram.prove(() => props.onDone(true))}
                >
                  {t('stepUp.useBiometrics')}
                </Button>
              )}
              {canCode && (
                <Button
                  block
                  variant={canPasskey || canTelegram ? 'secondary' : 'primary'}
                  busy={send.isPending}
                  disabled={busy}
                  onClick={sendCode}
                >
                  {status.data?.otp_destination
                    ? t('stepUp.sendCodeTo', { destination: status.data.otp_destination })
                    : t('stepUp.sendCode')}
                </Button>
              )}
              {!canPasskey && !canTelegram && !canCode && (
                <Alert tone="warning">{t('stepUp.noMethod')}</Alert>
              )}
              <PasskeyError error={passkey.error} />
              <PasskeyError error={telegram.error} fallback="biometrics" />
              <ErrorSummary error={send.error} about="code" />
            </div>
          )
        )}
        <div className="row dialog-actions">
          <Button variant="secondary" onClick={cancel} disabled={busy}>
            {t('action.cancel')}
          </Button>
        </div>
      </div>
    </dialog>
  )
}

/**
 * Telegram biometrics in the Mini App: the first time, a token from the
 * server is kept behind the device's biometrics (Telegram asks for access);
 * each proof unlocks it with a fingerprint or face and hands it to the server.
 */
const BIOMETRICS_INVALID = 'TELEGRAM_BIOMETRICS_INVALID'

function useTelegramBiometrics() {
  const { t } = useI18n()
  const biometrics = useMiniApp()?.biometrics
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()

  useEffect(() => {
    let live = true
    biometrics
      ?.state()
      .then((state) => live && setReady(state.available))
      .catch(() => live && setReady(false))
    return () => {
      live = false
    }
  }, [biometrics])

  const prove = async (done: () => void) => {
    if (!biometrics) return
    setBusy(true)
    setError(undefined)
    const reason = t('stepUp.biometricsReason')
    const enrol = async () => {
      const { token } = await enrolTelegramBiometrics()
      if (!(await biometrics.save(token, reason))) throw new Error('biometric access refused')
    }
    const unlockAndProve = async () => {
      const token = await biometrics.unlock(reason)
      if (!token) throw new Error('biometric check failed')
      await proveWithTelegramBiometrics(token)
    }
    try {
      const saved = (await biometrics.state()).tokenSaved
      if (!saved) await enrol()
      await unlockAndProve().catch(async (refused: unknown) => {
        // A token is good in the session that enrolled it, for a while: the
        // device may keep an earlier session's or an expired one. Enrol this one's.
        if (!saved || !(refused instanceof ApiError) || refused.code !== BIOMETRICS_INVALID) {
          throw refused
        }
        await enrol()
        await unlockAndProve()
      })
      done()
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }
  return { ready: Boolean(biometrics) && ready, busy, error, prove }
}

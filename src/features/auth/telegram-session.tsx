import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { claimTelegramSession } from '../../net/session.ts'
import { href, paths } from '../../paths.ts'
import { useHaptics } from '../../telegram/controls.tsx'
import { telegramLaunch } from '../../telegram/launch.ts'
import { firstOpening, requestOfLaunch } from '../../telegram/start-param.ts'
import { Button, Spinner } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TermsConsent } from '../../ui/terms-consent.tsx'
import { useTelegramSignIn, useTelegramSignUp } from './mutations.ts'
import {
  afterLogout,
  afterSignIn,
  noLoop,
  readLoopGuard,
  writeLoopGuard,
} from './telegram-loop-guard.ts'

/**
 * The Mini App's way in: no form. On launch — and whenever the app falls
 * back to the sign-in screen — it signs in with the launch init data; an
 * unknown Telegram user (404 USER_NOT_FOUND) is asked to agree to the terms
 * and then signed up. Only then do the routes show.
 *
 * A stored session is used only when it is the launch user's own
 * (src/net/session.ts): Telegram's storage is shared by all its accounts, so
 * anything else is wiped — tokens, cached answers in memory and on disk —
 * before the launch user signs in.
 *
 * A failing Telegram sign-in makes the auth proxy sign out (docs/product.md §4),
 * which reloads the page at the logout location. So that the reload does not
 * try again and again, a failed attempt is remembered for this tab and the
 * person retries by hand; so is a sign-in that keeps being followed by a
 * logout (./telegram-loop-guard.ts).
 */
const FAILED_KEY = 'telegram/sign-in-failed'

type Stage = 'checking' | 'ready' | 'terms' | 'failed'

export default function TelegramSession(props: { children: ReactNode }) {
  const { t } = useI18n()
  const [location, navigate] = useLocation()
  const queryClient = useQueryClient()
  const launch = telegramLaunch()
  const initData = launch?.initData ?? ''
  const signIn = useTelegramSignIn()
  const haptic = useHaptics()
  const [stage, setStage] = useState<Stage>(() => (remembered() ? 'failed' : 'checking'))
  const wantsSignIn = location === paths.signIn || location === paths.signUp
  const running = useRef(false)
  const countedLogout = useRef(false)

  const goHome = () => {
    if (wantsSignIn) navigate(paths.home, { replace: true })
  }

  const attempt = async () => {
    if (running.current) return
    running.current = true
    try {
      if (await claimTelegramSession(launch?.userId)) {
        goHome()
        setStage('ready')
        return
      }
      // Whatever another person's session left in memory goes with it (the disk is done).
      queryClient.clear()
      setStage('checking')
      remember(true)
      await signIn.mutateAsync(initData)
      remember(false)
      writeLoopGuard(tabStorage(), afterSignIn(readLoopGuard(tabStorage()), Date.now()))
      goHome()
      setStage('ready')
    } catch (error) {
      if (error instanceof ApiError && error.code === 'USER_NOT_FOUND') {
        remember(false)
        setStage('terms')
      } else {
        haptic('error')
        setStage('failed')
      }
    } finally {
      running.current = false
    }
  }

  // Signed in from a link to a payment request (`startapp=pr_<id>`): the request, once per tab.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the session is ready, nothing else
  useEffect(() => {
    if (stage !== 'ready') return
    const request = requestOfLaunch(launch?.raw ?? '')
    if (request && firstOpening(tabStorage(), request)) navigate(href.paymentRequest(request))
  }, [stage])

  // Every arrival at the logout location is the proxy giving up (no sign-out
  // link here): counted once per arrival, StrictMode's second run included.
  useEffect(() => {
    if (location !== paths.logout) {
      countedLogout.current = false
      return
    }
    if (countedLogout.current) return
    countedLogout.current = true
    const { guard, stop } = afterLogout(readLoopGuard(tabStorage()), Date.now())
    writeLoopGuard(tabStorage(), guard)
    if (stop) {
      remember(true)
      setStage('failed')
    }
  }, [location])

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs at the start and on each return to sign-in
  useEffect(() => {
    // The logout screen runs first: it clears what the last session left.
    if (location === paths.logout || stage === 'failed' || stage === 'terms') return
    if (stage === 'checking' || wantsSignIn) void attempt()
  }, [location, stage === 'checking'])

  if (location === paths.logout) return props.children
  if (stage === 'ready' && !wantsSignIn) return props.children

  return (
    <main id="main" className="main" tabIndex={-1}>
      {stage === 'terms' ? (
        <TelegramTerms
          initData={initData}
          onSignedUp={() => {
            goHome()
            setStage('ready')
          }}
          onAlreadyExists={() => setStage('checking')}
        />
      ) : stage === 'failed' ? (
        <section className="card stack" aria-labelledby="telegram-failed-title">
          <ScreenHeading id="telegram-failed-title">{t('telegram.failedTitle')}</ScreenHeading>
          {signIn.error ? <ErrorSummary error={signIn.error} /> : null}
          <p className="lead">{t('telegram.failedLead')}</p>
          <Button
            onClick={() => {
              remember(false)
              writeLoopGuard(tabStorage(), noLoop)
              signIn.reset()
              setStage('checking')
            }}
          >
            {t('error.retry')}
          </Button>
        </section>
      ) : (
        <Spinner label={t('telegram.signingIn')} />
      )}
    </main>
  )
}

/** The first visit from Telegram: agree to the terms, and the account is created. */
function TelegramTerms(props: {
  initData: string
  onSignedUp: () => void
  /** Sign-up found the account already there (another device, a lost answer): sign in instead. */
  onAlreadyExists: () => void
}) {
  const { t } = useI18n()
  const signUp = useTelegramSignUp()
  const haptic = useHaptics()
  const [agreed, setAgreed] = useState(false)
  const [missing, setMissing] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!agreed) {
      setMissing(true)
      haptic('error')
      return
    }
    signUp.mutate(props.initData, {
      onSuccess: () => {
        haptic('success')
        props.onSignedUp()
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'TELEGRAM_USER_EXISTS') {
          props.onAlreadyExists()
          return
        }
        haptic('error')
      },
    })
  }

  return (
    <section className="card stack" aria-labelledby="telegram-terms-title">
      <ScreenHeading id="telegram-terms-title">{t('telegram.termsTitle')}</ScreenHeading>
      <p className="lead">{t('telegram.termsLead')}</p>
      <form className="stack" onSubmit={submit} noValidate>
        {signUp.error ? <ErrorSummary error={signUp.error} /> : null}
        <TermsConsent
          checked={agreed}
          missing={missing}
          onChange={(checked) => {
            setAgreed(checked)
            haptic('selection')
          }}
        />
        <Button type="submit" block busy={signUp.isPending}>
          {signUp.isPending ? t('telegram.creatingAccount') : t('telegram.createAccount')}
        </Button>
      </form>
    </section>
  )
}

/** A screen's title, focused when the screen replaces the spinner, so a screen reader hears where it is. */
function ScreenHeading(props: { id: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useLayoutEffect(() => {
    ref.current?.focus()
  }, [])
  return (
    <h1 id={props.id} ref={ref} tabIndex={-1}>
      {props.children}
    </h1>
  )
}

function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined
  } catch {
    return undefined
  }
}

function remembered(): boolean {
  try {
    return tabStorage()?.getItem(FAILED_KEY) === '1'
  } catch {
    return false
  }
}

function remember(failed: boolean): void {
  try {
    if (failed) tabStorage()?.setItem(FAILED_KEY, '1')
    else tabStorage()?.removeItem(FAILED_KEY)
  } catch {
    // Without storage a failure is not remembered across the reload: at worst one more try.
  }
}

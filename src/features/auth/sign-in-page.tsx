import { type ReactNode, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { useI18n } from '../../i18n/i18n.tsx'
import { href, paths } from '../../paths.ts'
import { OtpSteps } from '../../ui/otp-steps.tsx'
import { Tabs } from '../../ui/tabs.tsx'
import { AuthScreen } from './auth-screen.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { signedInBefore, useSendSignInCode, useSignIn, useVerifySignInCode } from './mutations.ts'
import { nextAfterSignIn } from './next-after-sign-in.ts'
import { PasswordReset } from './password-reset.tsx'

type Method = 'password' | 'email' | 'phone'

/**
 * The forgotten-password flow is this page's, at `?reset=password`: no route
 * of its own, so the first download carries nothing for it.
 */
const RESET = 'password'
const resetHref = `${paths.signIn}?reset=${RESET}`

/**
 * Sign-in three ways: e-mail and password, a code by e-mail, a code by SMS;
 * and with a passkey (`passkey`: composed in by src/app, from the security
 * feature), in the e-mail field's suggestions and by its own button. A
 * forgotten password is reset from here.
 */
export default function SignInPage(props: { passkey?: ReactNode }) {
  const { t } = useI18n()
  const [method, setMethod] = useState<Method>('password')
  const search = useSearch()
  const resetting = new URLSearchParams(search).get('reset') === RESET
  if (resetting) {
    return (
      <AuthScreen
        id="reset"
        title="auth.reset.title"
        lead="auth.reset.lead"
        other={{ question: 'auth.reset.remembered', label: 'auth.signIn', href: paths.signIn }}
      >
        <PasswordReset />
      </AuthScreen>
    )
  }
  const tabs = [
    { id: 'password', label: t('auth.method.password'), panelLabel: t('auth.panel.password') },
    { id: 'email', label: t('auth.method.emailCode'), panelLabel: t('auth.panel.emailCode') },
    { id: 'phone', label: t('auth.method.phoneCode'), panelLabel: t('auth.panel.phoneCode') },
  ] as const
  return (
    <AuthScreen
      id="sign-in"
      // "Welcome back" to someone never signed in here would be a stranger's greeting.
      title={signedInBefore() ? 'auth.signInTitle' : 'auth.signInTitleFirst'}
      lead={signedInBefore() ? 'auth.signInLead' : 'auth.signInLeadFirst'}
      other={{
        question: 'auth.noAccount',
        label: 'auth.createAccount',
        href: href.signUp({ next: new URLSearchParams(search).get('next') ?? undefined }),
      }}
    >
      <Tabs label={t('auth.methods')} tabs={tabs} selected={method} onSelect={setMethod}>
        {method === 'password' && <PasswordSignIn />}
        {method === 'email' && <CodeSignIn channel="email" />}
        {method === 'phone' && <CodeSignIn channel="sms" />}
      </Tabs>
      {props.passkey}
    </AuthScreen>
  )
}

/** Home after signing in, or where the link that sent the person here asked (`?next=`). */
const useGoHome = () => {
  const [, navigate] = useLocation()
  const search = useSearch()
  return () => navigate(nextAfterSignIn(search), { replace: true })
}

function PasswordSignIn() {
  const { t } = useI18n()
  const signIn = useSignIn()
  const goHome = useGoHome()
  return (
    <CredentialsForm
      mode="sign-in"
      submitLabel="auth.signIn"
      busyLabel="auth.signingIn"
      busy={signIn.isPending}
      error={signIn.error}
      onSubmit={(credentials) => signIn.mutate(credentials, { onSuccess: goHome })}
      forgot={
        <p className="forgot-password">
          <Link href={resetHref}>{t('auth.forgotPassword')}</Link>
        </p>
      }
    />
  )
}

function CodeSignIn({ channel }: { channel: 'email' | 'sms' }) {
  const { t, language } = useI18n()
  const request = useSendSignInCode(channel, language)
  const verify = useVerifySignInCode(channel)
  const goHome = useGoHome()
  return (
    <OtpSteps
      channel={channel}
      label={t(channel === 'email' ? 'auth.email' : 'phone.number')}
      intro={
        <p className="muted">
          {t(channel === 'email' ? 'auth.emailCodeLead' : 'auth.phoneCodeLead')}
        </p>
      }
      request={request}
      verify={verify}
      onVerified={goHome}
    />
  )
}

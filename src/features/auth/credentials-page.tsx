import { Link, useLocation } from 'wouter'
import { paths } from '../../app/paths.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { useSignIn, useSignUp } from './mutations.ts'

/** What differs between signing in and creating an account; the screen is the same. */
const MODES = {
  'sign-in': {
    useSubmit: useSignIn,
    title: 'auth.signInTitle',
    lead: 'auth.signInLead',
    submit: 'auth.signIn',
    busy: 'auth.signingIn',
    other: { question: 'auth.noAccount', label: 'auth.createAccount', href: paths.signUp },
  },
  'sign-up': {
    useSubmit: useSignUp,
    title: 'auth.signUpTitle',
    lead: 'auth.signUpLead',
    submit: 'auth.createAccount',
    busy: 'auth.creatingAccount',
    other: { question: 'auth.haveAccount', label: 'auth.signIn', href: paths.signIn },
  },
} as const satisfies Record<
  string,
  {
    useSubmit: typeof useSignIn
    title: MessageKey
    lead: MessageKey
    submit: MessageKey
    busy: MessageKey
    other: { question: MessageKey; label: MessageKey; href: string }
  }
>

export function CredentialsPage({ mode }: { mode: keyof typeof MODES }) {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const screen = MODES[mode]
  const submit = screen.useSubmit()
  const titleId = `${mode}-title`
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h1 id={titleId}>{t(screen.title)}</h1>
      <p className="lead">{t(screen.lead)}</p>
      <CredentialsForm
        mode={mode}
        submitLabel={screen.submit}
        busyLabel={screen.busy}
        busy={submit.isPending}
        error={submit.error}
        onSubmit={(credentials) =>
          submit.mutate(credentials, { onSuccess: () => navigate(paths.home, { replace: true }) })
        }
      />
      <p className="row muted">
        {t(screen.other.question)} <Link href={screen.other.href}>{t(screen.other.label)}</Link>
      </p>
    </section>
  )
}

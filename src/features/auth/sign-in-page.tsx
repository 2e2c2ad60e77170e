import { Link, useLocation } from 'wouter'
import { paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { useSignIn } from './mutations.ts'

export default function SignInPage() {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const signIn = useSignIn()
  return (
    <section className="card stack" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t('auth.signInTitle')}</h1>
      <p className="lead">{t('auth.signInLead')}</p>
      <CredentialsForm
        mode="sign-in"
        submitLabel="auth.signIn"
        busyLabel="auth.signingIn"
        busy={signIn.isPending}
        error={signIn.error}
        onSubmit={(credentials) =>
          signIn.mutate(credentials, { onSuccess: () => navigate(paths.home, { replace: true }) })
        }
      />
      <p className="row muted">
        {t('auth.noAccount')} <Link href={paths.signUp}>{t('auth.createAccount')}</Link>
      </p>
    </section>
  )
}

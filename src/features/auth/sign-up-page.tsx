import { Link, useLocation } from 'wouter'
import { paths } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { useSignUp } from './mutations.ts'

export default function SignUpPage() {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const signUp = useSignUp()
  return (
    <section className="card stack" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">{t('auth.signUpTitle')}</h1>
      <p className="lead">{t('auth.signUpLead')}</p>
      <CredentialsForm
        mode="sign-up"
        submitLabel="auth.createAccount"
        busyLabel="auth.creatingAccount"
        busy={signUp.isPending}
        error={signUp.error}
        onSubmit={(credentials) =>
          signUp.mutate(credentials, { onSuccess: () => navigate(paths.home, { replace: true }) })
        }
      />
      <p className="row muted">
        {t('auth.haveAccount')} <Link href={paths.signIn}>{t('auth.signIn')}</Link>
      </p>
    </section>
  )
}

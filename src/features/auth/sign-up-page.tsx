import { useLocation } from 'wouter'
import { paths } from '../../paths.ts'
import { AuthScreen } from './auth-screen.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { useSignUp } from './mutations.ts'

export default function SignUpPage() {
  const [, navigate] = useLocation()
  const signUp = useSignUp()
  return (
    <AuthScreen
      id="sign-up"
      title="auth.signUpTitle"
      lead="auth.signUpLead"
      other={{ question: 'auth.haveAccount', label: 'auth.signIn', href: paths.signIn }}
    >
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
    </AuthScreen>
  )
}

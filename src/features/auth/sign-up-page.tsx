import { useLocation, useSearch } from 'wouter'
import { href } from '../../paths.ts'
import { AuthScreen } from './auth-screen.tsx'
import { CredentialsForm } from './credentials-form.tsx'
import { useSignUp } from './mutations.ts'
import { nextAfterSignIn } from './next-after-sign-in.ts'

export default function SignUpPage() {
  const [, navigate] = useLocation()
  const signUp = useSignUp()
  const search = useSearch()
  const next = new URLSearchParams(search).get('next') ?? undefined
  return (
    <AuthScreen
      id="sign-up"
      title="auth.signUpTitle"
      lead="auth.signUpLead"
      other={{ question: 'auth.haveAccount', label: 'auth.signIn', href: href.signIn({ next }) }}
    >
      <CredentialsForm
        mode="sign-up"
        submitLabel="auth.createAccount"
        busyLabel="auth.creatingAccount"
        busy={signUp.isPending}
        error={signUp.error}
        onSubmit={(credentials) =>
          signUp.mutate(credentials, {
            onSuccess: () => navigate(nextAfterSignIn(search), { replace: true }),
          })
        }
      />
    </AuthScreen>
  )
}

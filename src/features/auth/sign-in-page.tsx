import { CredentialsPage } from './credentials-page.tsx'

export default function SignInPage() {
  return <CredentialsPage mode="sign-in" />
}

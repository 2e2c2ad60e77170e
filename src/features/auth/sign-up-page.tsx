import { CredentialsPage } from './credentials-page.tsx'

export default function SignUpPage() {
  return <CredentialsPage mode="sign-up" />
}

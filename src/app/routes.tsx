import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { Redirect, Route, Switch, useLocation } from 'wouter'
import { useI18n } from '../i18n/i18n.tsx'
import { hasSession } from '../net/session.ts'
import { Alert, Button, Spinner } from '../ui/components.tsx'
import { ErrorBoundary } from './error-boundary.tsx'
import { Layout } from './layout.tsx'
import { paths } from './paths.ts'

const SignInPage = lazy(() => import('../features/auth/sign-in-page.tsx'))
const SignUpPage = lazy(() => import('../features/auth/sign-up-page.tsx'))
const LogoutPage = lazy(() => import('../features/auth/logout-page.tsx'))
const HomePage = lazy(() => import('./home-page.tsx'))
const WalletPage = lazy(() => import('../features/wallets/wallet-page.tsx'))
const TransactionPage = lazy(() => import('../features/wallets/transaction-page.tsx'))
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'))
const CounterpartiesPage = lazy(() => import('../features/counterparties/counterparties-page.tsx'))
const NewCounterpartyPage = lazy(
  () => import('../features/counterparties/new-counterparty-page.tsx'),
)
const CounterpartyPage = lazy(() => import('../features/counterparties/counterparty-page.tsx'))
const SendPage = lazy(() => import('../features/orders/send-page.tsx'))
const ExchangePage = lazy(() => import('../features/orders/exchange-page.tsx'))
const DepositPage = lazy(() => import('../features/orders/deposit-page.tsx'))
const TopUpPage = lazy(() => import('../features/orders/top-up-page.tsx'))
const OrdersPage = lazy(() => import('../features/orders/orders-page.tsx'))
const OrderPage = lazy(() => import('../features/orders/order-page.tsx'))
const CardsPage = lazy(() => import('../features/cards/cards-page.tsx'))
const NewCardPage = lazy(() => import('../features/cards/new-card-page.tsx'))
const CardPage = lazy(() => import('../features/cards/card-page.tsx'))
const VerifyPage = lazy(() => import('../features/kyc/verify-page.tsx'))
const DeveloperPage = lazy(() => import('../features/developer/developer-page.tsx'))
const FiatAccountsPage = lazy(() => import('../features/cards/fiat-accounts-page.tsx'))
const FiatAccountPage = lazy(() => import('../features/cards/fiat-account-page.tsx'))

/**
 * Whether tokens are stored, read again on every navigation: a sign-in just
 * stored them, or another tab signed out. Until the read for the current
 * location is back the answer is "unknown", so no route redirects on a stale one.
 */
function useSession(): boolean | undefined {
  const [location] = useLocation()
  const [checked, setChecked] = useState<{ location: string; signedIn: boolean }>()
  useEffect(() => {
    let current = true
    void hasSession().then((signedIn) => {
      if (current) setChecked({ location, signedIn })
    })
    return () => {
      current = false
    }
  }, [location])
  return checked?.location === location ? checked.signedIn : undefined
}

function Screen(props: { children: ReactNode }) {
  const { t } = useI18n()
  return (
    <ErrorBoundary
      fallback={(retry) => (
        <div className="stack">
          <Alert>{t('error.boundary')}</Alert>
          <Button variant="secondary" onClick={retry}>
            {t('error.retry')}
          </Button>
        </div>
      )}
    >
      <Suspense fallback={<Spinner label={t('app.loading')} />}>{props.children}</Suspense>
    </ErrorBoundary>
  )
}

export function Routes() {
  const { t } = useI18n()
  const signedIn = useSession()
  if (signedIn === undefined) return <Spinner label={t('app.loading')} />

  return (
    <Layout signedIn={signedIn}>
      <Screen>
        <Switch>
          <Route path={paths.logout} component={LogoutPage} />
          <Route path={paths.signIn}>
            {signedIn ? <Redirect to={paths.home} replace /> : <SignInPage />}
          </Route>
          <Route path={paths.signUp}>
            {signedIn ? <Redirect to={paths.home} replace /> : <SignUpPage />}
          </Route>
          <Route path={paths.profile}>
            {signedIn ? <ProfilePage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.counterparties}>
            {(params) =>
              signedIn ? (
                <CounterpartiesPage uuid={params.uuid} />
              ) : (
                <Redirect to={paths.signIn} replace />
              )
            }
          </Route>
          <Route path={paths.newCounterparty}>
            {(params) =>
              signedIn ? (
                <NewCounterpartyPage uuid={params.uuid} />
              ) : (
                <Redirect to={paths.signIn} replace />
              )
            }
          </Route>
          <Route path={paths.counterparty}>
            {(params) =>
              signedIn ? (
                <CounterpartyPage uuid={params.uuid} id={params.id} />
              ) : (
                <Redirect to={paths.signIn} replace />
              )
            }
          </Route>
          <Route path={paths.transaction}>
            {(params) =>
              signedIn ? (
                <TransactionPage walletUuid={params.uuid} tx={params.tx} />
              ) : (
                <Redirect to={paths.signIn} replace />
              )
            }
          </Route>
          <Route path={paths.wallet}>
            {(params) =>
              signedIn ? <WalletPage uuid={params.uuid} /> : <Redirect to={paths.signIn} replace />
            }
          </Route>
          <Route path={paths.send}>
            {signedIn ? <SendPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.exchange}>
            {signedIn ? <ExchangePage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.deposit}>
            {signedIn ? <DepositPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.topUp}>
            {signedIn ? <TopUpPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.orders}>
            {signedIn ? <OrdersPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.order}>
            {(params) =>
              signedIn ? <OrderPage id={params.id} /> : <Redirect to={paths.signIn} replace />
            }
          </Route>
          <Route path={paths.cards}>
            {signedIn ? <CardsPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.newCard}>
            {signedIn ? <NewCardPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.card}>
            {(params) =>
              signedIn ? <CardPage id={params.id} /> : <Redirect to={paths.signIn} replace />
            }
          </Route>
          <Route path={paths.fiatAccounts}>
            {signedIn ? <FiatAccountsPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.fiatAccount}>
            {(params) =>
              signedIn ? <FiatAccountPage id={params.id} /> : <Redirect to={paths.signIn} replace />
            }
          </Route>
          <Route path={paths.developer}>
            {signedIn ? <DeveloperPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.verify}>
            {signedIn ? <VerifyPage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route path={paths.home}>
            {signedIn ? <HomePage /> : <Redirect to={paths.signIn} replace />}
          </Route>
          <Route>
            <Redirect to={paths.home} replace />
          </Route>
        </Switch>
      </Screen>
    </Layout>
  )
}

import { MoneyActions } from '../features/orders/money-actions.tsx'
import WalletPage from '../features/wallets/wallet-page.tsx'

/** A wallet with the money actions for it: two features composed here, as home composes them. */
export default function WalletScreen(props: { uuid: string }) {
  return <WalletPage uuid={props.uuid} actions={<MoneyActions wallet={props.uuid} />} />
}

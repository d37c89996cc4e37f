/** Copy of the home page. */

export const HOME_HERO = {
  eyebrow: 'Crypto payments, swaps and support',
  title: 'Pay in crypto.',
  highlight: 'Spend in credits.',
  lead: 'Olympus turns the coins you hold into a simple dollar balance. Top up through NOWPayments, swap between cryptocurrencies in minutes and earn reward credits on every swap, even before you have an account.',
} as const;

export interface Feature {
  id: string;
  title: string;
  text: string;
  /** Short glyph shown in the card's icon tile (decorative). */
  icon: string;
}

export const HOME_FEATURES: readonly Feature[] = [
  {
    id: 'top-up',
    title: 'Top up in crypto',
    text: 'Pick a coin, scan the QR code and watch the payment move from detected to confirmed. Credits land in your balance in US dollars, fee shown up front.',
    icon: '↧',
  },
  {
    id: 'swap',
    title: 'Instant swaps with rewards',
    text: 'Swap one cryptocurrency for another without opening an account. Every finished swap earns reward credits you can claim within 30 days.',
    icon: '⇄',
  },
  {
    id: 'support',
    title: 'Support tickets that get answered',
    text: 'Open a ticket as a guest or from your dashboard and follow the conversation in one place. Guest tickets move to your account when you sign up.',
    icon: '✉',
  },
  {
    id: 'connections',
    title: 'Discord and Telegram',
    text: 'Connect your chat accounts to verify yourself in our communities and get help where you already are. Disconnect whenever you like.',
    icon: '⚭',
  },
];

export const HOME_STEPS: readonly { title: string; text: string }[] = [
  { title: 'Start as a guest or register', text: 'Register with a username and password, or continue as a guest and sign up later.' },
  { title: 'Top up or swap', text: 'Send crypto to the address on the payment page, or start a swap and get a reward claim code.' },
  {
    title: 'Use your credits',
    text: 'Your balance and history are in the dashboard. Rewards from guest swaps are claimed when you sign in.',
  },
];

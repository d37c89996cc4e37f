import { t } from '@lingui/core/macro';
/** Copy of the home page. */

export function homeHero() {
  return {
    eyebrow: t`Crypto payments, swaps and support`,
    title: t`Pay in crypto.`,
    highlight: t`Spend in credits.`,
    lead: t`Olympus turns the coins you hold into a simple dollar balance. Top up through NOWPayments, swap between cryptocurrencies in minutes and earn reward credits on every swap, even before you have an account.`,
  } as const;
}

export interface Feature {
  id: string;
  title: string;
  text: string;
  /** Short glyph shown in the card's icon tile (decorative). */
  icon: string;
}

export function homeFeatures(): readonly Feature[] {
  return [
    {
      id: 'top-up',
      title: t`Top up in crypto`,
      text: t`Pick a coin, scan the QR code and watch the payment move from detected to confirmed. Credits land in your balance in US dollars, fee shown up front.`,
      icon: '↧',
    },
    {
      id: 'swap',
      title: t`Instant swaps with rewards`,
      text: t`Swap one cryptocurrency for another without opening an account. Every finished swap earns reward credits you can claim within 30 days.`,
      icon: '⇄',
    },
    {
      id: 'support',
      title: t`Support tickets that get answered`,
      text: t`Open a ticket as a guest or from your dashboard and follow the conversation in one place. Guest tickets move to your account when you sign up.`,
      icon: '✉',
    },
    {
      id: 'connections',
      title: t`Discord and Telegram`,
      text: t`Connect your chat accounts to verify yourself in our communities and get help where you already are. Disconnect whenever you like.`,
      icon: '⚭',
    },
  ];
}

export function homeSteps(): readonly { title: string; text: string }[] {
  return [
    { title: t`Start as a guest or register`, text: t`Register with a username and password, or continue as a guest and sign up later.` },
    { title: t`Top up or swap`, text: t`Send crypto to the address on the payment page, or start a swap and get a reward claim code.` },
    {
      title: t`Use your credits`,
      text: t`Your balance and history are in the dashboard. Rewards from guest swaps are claimed when you sign in.`,
    },
  ];
}

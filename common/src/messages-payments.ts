// Messages of payments where SPEC §8 is silent (its own payment messages are in messages.ts).

export const PAYMENT_MESSAGES = {
  productsDisabled: 'Subscriptions and tips are not offered on this site.',
  priceUnknown: 'That plan is not on offer any more. Reload the pricing page and choose again.',
  badSignature:
    'This payment link was not made by this page. Reload the page and try again from there.',
  foreignNextUrl: 'After paying you can only come back to a page of this site.',
  tipTooSmall: (min: string) => `A tip must be at least ${min}.`,
  tipTooLarge: (max: string) => `A tip can be at most ${max}.`,
  tipNotANumber: 'Type the amount in dollars, for example 5 or 7.50.',
  tipTargetGone: 'That manuscript or author is no longer here to receive a tip.',
  tipSelf: 'You cannot tip yourself.',
  logInToSubscribe: 'Log in or sign up first, then choose your plan.',
  alreadySubscribed:
    'You already have an active subscription. Cancel its renewal on your profile before choosing another plan.',
  webhookUnsigned: 'Webhook signature missing or invalid.',
  webhookNotAnEvent:
    'The signed body is not a Stripe event: a JSON object with a string id and a string type.',
  webhookRetry: 'The payment provider could not be read just now; send the event again later.',
  webhookNotConfigured: 'Webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET).',
  sessionGone: 'This checkout has expired or was already paid. Start again from the pricing page.',
  cardDeclined: 'Your card was declined.',
  cardNumberInvalid: 'Your card number is incorrect.',
  cardExpiryInvalid: "Your card's expiration date is incomplete or in the past.",
  cardCvcInvalid: "Your card's security code is incomplete.",
  confirmationRefused: 'We are unable to authenticate your payment method. Try another card.',
  couponInvalid: 'This code is not valid.',
  couponExpired: 'This code has expired.',
  couponUsedUp: 'This code has been used as many times as it may be.',
  waitingListJoined: "You're on the list! We sent you a confirmation e-mail.",
  waitingListAlready: "You're already on the list. We'll write when there is news.",
  giftCodeInvalid: 'This gift code is not valid or was already redeemed.',
  giftRedeemed: (product: string) => `Gift redeemed: enjoy ${product}!`,
  giftHasActive:
    'You already have an active subscription. Redeem the gift once it has ended, or give it to someone else.',
  subscriptionCannotRenew:
    'A gift subscription cannot renew: it ends on its date. Choose a plan to keep going.',
  tipThanks: (author: string) => `Thank you! ${author} received your tip.`,
} as const;

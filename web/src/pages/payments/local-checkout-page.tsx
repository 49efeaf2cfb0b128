import { useState, type FormEvent } from 'react';
import { PAYMENT_MESSAGES } from '@margins/common/messages-payments';
import { TEST_CARDS } from '@margins/common/payments-constants';
import { formatUsd } from '@margins/common/pricing';
import { localCheckoutView, type LocalPayResponse } from '@margins/common/schemas/payments';
import { api, submitFailure, type FieldErrors } from '../../api/client.ts';
import { Dialog } from '../../components/dialog.tsx';
import { FormAlert, TextField } from '../../components/form/fields.tsx';
import { PageContainer, PageHeading } from '../../components/page-heading.tsx';
import { loadPage } from '../../lib/navigation.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';

type CardForm = {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
  couponCode: string;
};

/**
 * The local provider's checkout page (/payments/local/checkout/:id): a card form that behaves
 * like Stripe's test mode, so the whole flow can be walked without Stripe keys.
 */
export function LocalCheckoutPage() {
  const { data } = usePageConfig();
  const view = localCheckoutView.safeParse(data.checkout);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<CardForm | null>(null);
  useDocumentTitle('Checkout');

  if (!view.success) {
    return (
      <PageContainer width="narrow">
        <PageHeading title="Checkout" lead={PAYMENT_MESSAGES.sessionGone} />
        <a href="/products/">Back to the plans</a>
      </PageContainer>
    );
  }
  const checkout = view.data;

  const pay = async (card: CardForm, confirmed = false) => {
    setBusy(true);
    setErrors({});
    setProblem('');
    try {
      const answer = await api.post<LocalPayResponse>(
        `/payments/local/checkout/${checkout.id}/pay`,
        { ...card, couponCode: card.couponCode || undefined, confirmed },
      );
      if (answer.status === 'requires_confirmation') {
        setConfirming(card);
        setBusy(false);
        return;
      }
      loadPage(answer.redirectUrl);
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      const named = Object.values(failure.errors).flat();
      setProblem(named.length ? named.join(' ') : failure.problem);
      setBusy(false);
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const read = (name: string) => String(form.get(name) ?? '');
    void pay({
      cardNumber: read('cardNumber'),
      expiry: read('expiry'),
      cvc: read('cvc'),
      name: read('name'),
      couponCode: read('couponCode'),
    });
  };

  const per = checkout.interval ? ` / ${checkout.interval}` : '';
  return (
    <PageContainer width="narrow">
      <PageHeading eyebrow="Test checkout" title={checkout.description}>
        <p className="mt-4 text-3xl font-semibold" data-amount>
          {formatUsd(checkout.amount)}
          <span className="text-base font-normal text-muted">{per}</span>
        </p>
      </PageHeading>
      <form
        noValidate
        onSubmit={handleSubmit}
        className="card space-y-5 p-5 sm:p-8"
        aria-label="Card payment"
      >
        <FormAlert tone="info">
          No Stripe keys are set, so this is Margins&apos; own test checkout: no money moves. Pay
          with {TEST_CARDS.succeeds.replace(/(\d{4})(?=\d)/g, '$1 ')}; 4000 0000 0000 0002 is
          declined; 4000 0025 0000 3155 asks you to confirm.
        </FormAlert>
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        <TextField
          label="Card number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          errors={errors.cardNumber}
        />
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label="Expiry (MM/YY)"
            name="expiry"
            autoComplete="cc-exp"
            placeholder="12/34"
            errors={errors.expiry}
          />
          <TextField
            label="CVC"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            errors={errors.cvc}
          />
        </div>
        <TextField label="Name on card" name="name" autoComplete="cc-name" errors={errors.name} />
        <TextField label="Promotion code (optional)" name="couponCode" errors={errors.couponCode} />
        <div className="flex items-center justify-between gap-3">
          <a href={checkout.cancelUrl}>Cancel</a>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Paying…' : `Pay ${formatUsd(checkout.amount)}`}
          </button>
        </div>
      </form>
      {confirming ? (
        <Dialog title="Confirm this payment" onClose={() => setConfirming(null)} size="max-w-md">
          <p className="text-muted">
            Your bank asks you to confirm this payment (3-D Secure test).
          </p>
          <div className="mt-6 flex justify-end gap-3">
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setConfirming(null);
                setProblem(PAYMENT_MESSAGES.confirmationRefused);
              }}
            >
              Fail authentication
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                const card = confirming;
                setConfirming(null);
                void pay(card, true);
              }}
            >
              Complete authentication
            </button>
          </div>
        </Dialog>
      ) : null}
    </PageContainer>
  );
}

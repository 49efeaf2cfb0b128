import { useState, type FormEvent } from 'react';
import { TIP_PRESETS } from '@margins/common/payments-constants';
import type { TipOfferResponse } from '@margins/common/schemas/payments';
import { fetchTipOffer, startCheckout } from '../../api/payments.ts';
import { Dialog } from '../dialog.tsx';
import { useFlash } from '../feedback/feedback.tsx';
import { TextField } from '../form/fields.tsx';
import { usePageConfig } from '../../page-config.ts';

/**
 * The Contribute (tip) button and modal of the reader (SPEC §2): preset amounts and a field;
 * the amount is sent as typed (the server bounds it, SPEC §5). Hidden without productsEnabled.
 */
export function ContributeButton({ manuscriptId }: { manuscriptId: number }) {
  const { productsEnabled } = usePageConfig();
  const flash = useFlash();
  const [offer, setOffer] = useState<TipOfferResponse | null>(null);
  const [amount, setAmount] = useState('5');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  if (!productsEnabled) return null;

  const open = async () => {
    try {
      setOffer(await fetchTipOffer(manuscriptId));
    } catch {
      flash('Tips cannot be given right now. Try again in a moment.');
    }
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!offer) return;
    setBusy(true);
    const failure = await startCheckout({ tipAmount: amount, ...offer.offer }, flash);
    setErrors(failure?.errors ?? {});
    setBusy(false);
  };

  return (
    <>
      <button
        type="button"
        className="btn btn-secondary mt-4"
        onClick={() => void open()}
        data-contribute
      >
        <span aria-hidden="true">♥</span> Contribute
      </button>
      {offer ? (
        <Dialog
          title={`Tip ${offer.author.display_name}`}
          description={`A one-off contribution for “${offer.manuscript.title}”.`}
          onClose={() => setOffer(null)}
          size="max-w-md"
        >
          <form onSubmit={handleSubmit} noValidate className="space-y-4" aria-label="Tip">
            <div className="flex flex-wrap gap-2" role="group" aria-label="Preset amounts">
              {TIP_PRESETS.map((preset) => (
                <button
                  key={preset}
                  type="button"
                  className={`btn ${amount === String(preset) ? 'btn-primary' : 'btn-secondary'}`}
                  aria-pressed={amount === String(preset)}
                  onClick={() => setAmount(String(preset))}
                >
                  ${preset}
                </button>
              ))}
            </div>
            <TextField
              label="Amount in dollars"
              name="tipAmount"
              inputMode="decimal"
              value={amount}
              onChange={(event) => setAmount(event.currentTarget.value)}
              errors={errors.tipAmount ?? errors.tipFor}
            />
            <div className="flex justify-end">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {busy ? 'Opening checkout…' : 'Continue to payment'}
              </button>
            </div>
          </form>
        </Dialog>
      ) : null}
    </>
  );
}

import { useState } from 'react';
import { MESSAGES } from '@margins/common';
import { api } from '../../api/client.ts';
import { useFlash, useToast } from '../../components/feedback/feedback.tsx';

/**
 * Mature content: certify being 18 or over (GET /profile/certify18, a state-changing GET
 * with the CSRF header), then choose whether mature manuscripts show (POST /profile/mature).
 */
export function MatureSection({
  certified,
  showMature,
}: {
  certified: boolean;
  showMature: boolean;
}) {
  const flash = useFlash();
  const toast = useToast();
  const [isCertified, setCertified] = useState(certified);
  const [show, setShow] = useState(showMature);
  const [busy, setBusy] = useState(false);

  const handleCertify = async () => {
    setBusy(true);
    try {
      await api.get('/profile/certify18');
      setCertified(true);
      toast('Thanks — you can now choose to see mature manuscripts.');
    } catch {
      flash(MESSAGES.informationNotSaved);
    } finally {
      setBusy(false);
    }
  };

  const handleShowChange = async (value: boolean) => {
    setShow(value);
    try {
      await api.post('/profile/mature', { show_mature: value });
    } catch {
      setShow(!value);
      flash(MESSAGES.informationNotSaved);
    }
  };

  return (
    <section
      aria-labelledby="mature-heading"
      className="rounded-xl border border-line bg-page/50 p-5 sm:p-6"
    >
      <h2 id="mature-heading" className="font-serif text-xl font-semibold">
        Mature content
      </h2>
      <p className="mt-1 text-sm text-muted">
        Some manuscripts are marked 18+ by their authors. They stay hidden until you confirm your
        age and choose to see them.
      </p>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        {isCertified ? (
          <p className="text-sm font-medium text-success">You confirmed you are 18 or over.</p>
        ) : (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void handleCertify()}
            disabled={busy}
          >
            I am 18 or over
          </button>
        )}
        <label
          className={`flex items-center gap-3 text-sm font-medium ${isCertified ? 'cursor-pointer' : 'cursor-not-allowed text-muted'}`}
        >
          <input
            type="checkbox"
            role="switch"
            checked={show}
            disabled={!isCertified}
            onChange={(event) => void handleShowChange(event.target.checked)}
            className="size-4 accent-(--accent)"
          />
          Show mature manuscripts
        </label>
      </div>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { api, submitFailure, type FieldErrors } from '../../api/client.ts';
import { FormAlert, TextField } from '../../components/form/fields.tsx';

/** The waiting list (POST /products/ {email}): a clear answer, field errors under the field. */
export function WaitingListForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    setBusy(true);
    setErrors({});
    setProblem('');
    try {
      const answer = await api.post<{ message: string }>('/products/', { email });
      setMessage(answer.message);
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="card mt-12 space-y-4 p-6 sm:p-8"
      aria-labelledby="waiting-list-heading"
    >
      <h2 id="waiting-list-heading" className="text-xl font-semibold">
        Join the waiting list
      </h2>
      <p className="text-muted">
        New plans and features open in small batches. Leave your address and we will write when
        there is news.
      </p>
      {message ? <FormAlert tone="success">{message}</FormAlert> : null}
      {problem && !errors.email ? <FormAlert>{problem}</FormAlert> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          errors={errors.email}
          className="flex-1"
        />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Joining…' : 'Join the list'}
        </button>
      </div>
    </form>
  );
}

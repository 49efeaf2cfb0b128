import { useState, type FormEvent } from 'react';
import { api, submitFailure, type FieldErrors } from '../../api/client.ts';
import { FormAlert, TextField } from '../form/fields.tsx';

/** Redeem a gift code (POST /payments/gifts/redeem), on the member page. */
export function GiftRedeemForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState('');
  const [message, setMessage] = useState('');

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    setErrors({});
    setProblem('');
    try {
      const answer = await api.post<{ message: string }>('/payments/gifts/redeem', { code });
      setMessage(answer.message);
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
    }
  };

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className="card mt-10 space-y-4 p-6 sm:p-8"
      id="redeem"
    >
      <h2 className="text-xl font-semibold">Redeem a gift</h2>
      {message ? <FormAlert tone="success">{message}</FormAlert> : null}
      {problem && !errors.code ? <FormAlert>{problem}</FormAlert> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField label="Gift code" name="code" errors={errors.code} className="flex-1" />
        <button type="submit" className="btn btn-secondary">
          Redeem
        </button>
      </div>
    </form>
  );
}

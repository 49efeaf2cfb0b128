import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { completeSignupBody, type CompleteSignupBody } from '@margins/common';
import { completeSignup } from '../../api/auth.ts';
import { submitFailure, type FieldErrors } from '../../api/client.ts';
import { FormAlert, TextField, otherErrors } from '../../components/form/fields.tsx';
import { usePageConfig } from '../../page-config.ts';
import { formValues, validate } from '../../lib/validate.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard } from './auth-card.tsx';
import { forgetInviteCode, recalledInviteCode } from './invite-code-storage.ts';

/** Complete sign-up (/auth/complete/signup): choose a handle (and redeem an invite code). */
export function CompleteSignupPage() {
  const { currentUser, invitesEnabled } = usePageConfig();
  const { search } = useLocation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [inviteCode] = useState(
    () => new URLSearchParams(search).get('invite_code') ?? recalledInviteCode(),
  );
  useDocumentTitle('Finish signing up');
  const fields = invitesEnabled
    ? ['handle', 'display_name', 'invite_code']
    : ['handle', 'display_name'];

  const complete = useMutation({
    mutationFn: (body: CompleteSignupBody) => completeSignup(body),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const body: CompleteSignupBody = {
      handle: values.handle ?? '',
      display_name: values.display_name ?? '',
      ...(invitesEnabled ? { invite_code: values.invite_code ?? '' } : {}),
    };
    const invalid = validate(completeSignupBody, body);
    setErrors(invalid ?? {});
    setProblem(null);
    if (invalid) return;
    try {
      const response = await complete.mutateAsync(body);
      forgetInviteCode();
      window.location.assign(response.next || '/dashboard');
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
    }
  };

  const stray = otherErrors(errors, fields);

  return (
    <AuthCard
      title="One last thing"
      lead="Pick the handle people will know you by. It appears on your profile and beside your comments."
    >
      <form noValidate onSubmit={handleSubmit} className="space-y-5" aria-label="Finish signing up">
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {stray.length ? <FormAlert>{stray.join(' ')}</FormAlert> : null}
        <TextField
          label="Handle"
          name="handle"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={currentUser?.handle ?? ''}
          hint="Your @name. Letters, digits and underscores, up to 30."
          errors={errors.handle}
          maxLength={30}
        />
        <TextField
          label="Display name"
          name="display_name"
          autoComplete="name"
          defaultValue={currentUser?.display_name ?? ''}
          errors={errors.display_name}
          maxLength={80}
        />
        {invitesEnabled ? (
          <TextField
            label="Invite code"
            name="invite_code"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={inviteCode}
            hint="Margins is invite-only for now. Ask a member for a code."
            errors={errors.invite_code}
            maxLength={64}
          />
        ) : null}
        <button type="submit" className="btn btn-primary w-full" disabled={complete.isPending}>
          {complete.isPending ? 'Saving…' : 'Finish and start reading'}
        </button>
      </form>
    </AuthCard>
  );
}

import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { PASSWORD_MIN_LENGTH, passwordProblem, signupBody, type SignupBody } from '@margins/common';
import { signUp } from '../../api/auth.ts';
import { submitFailure, type FieldErrors } from '../../api/client.ts';
import { FormAlert, TextField, otherErrors } from '../../components/form/fields.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { usePageConfig } from '../../page-config.ts';
import { formValues, validate } from '../../lib/validate.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard, nextFrom } from './auth-card.tsx';

const FIELDS = ['email', 'password', 'display_name'] as const;

/** The password rules the browser can check (the server also refuses common passwords). */
function passwordErrors(values: Record<string, string>): FieldErrors | null {
  const problem = passwordProblem(values.password ?? '', { email: values.email });
  return problem ? { password: [problem] } : null;
}

/** Sign up (/auth/signup): e-mail, password and display name, then "check your inbox". */
export function SignupPage() {
  const { data, loginState } = usePageConfig();
  const { search } = useLocation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const next = nextFrom(data, search);
  useDocumentTitle('Sign up');

  const signup = useMutation({
    mutationFn: (body: SignupBody) => signUp(body),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = { ...formValues(event.currentTarget), ...(next ? { next } : {}) };
    const invalid = validate(signupBody, values) ?? passwordErrors(values);
    setErrors(invalid ?? {});
    setProblem(null);
    if (invalid) return;
    try {
      const response = await signup.mutateAsync(values as SignupBody);
      window.location.assign(response.next || '/auth/verify');
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
    }
  };

  const stray = otherErrors(errors, FIELDS);
  const loginLink = next ? `/auth/login?next=${encodeURIComponent(next)}` : '/auth/login';

  return (
    <AuthCard
      title="Join Margins"
      lead="Share your writing with readers you trust, or become the first reader someone has been hoping for."
      footer={
        <>
          Already have an account? <AppLink to={loginLink}>Log in</AppLink>
        </>
      }
    >
      {loginState !== 'anonymous' ? (
        <div className="mb-5">
          <FormAlert tone="info">
            You are already logged in. <AppLink to="/dashboard">Go to your dashboard</AppLink>
          </FormAlert>
        </div>
      ) : null}
      <form noValidate onSubmit={handleSubmit} className="space-y-5" aria-label="Sign up">
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {stray.length ? <FormAlert>{stray.join(' ')}</FormAlert> : null}
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          errors={errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters, not a common password. A short sentence works well.`}
          errors={errors.password}
        />
        <TextField
          label="Display name"
          name="display_name"
          autoComplete="name"
          hint="How readers and authors will see you. You can change it later."
          errors={errors.display_name}
          maxLength={80}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={signup.isPending}>
          {signup.isPending ? 'Creating your account…' : 'Sign up'}
        </button>
        <p className="text-center text-xs text-muted">
          By signing up you agree to our <AppLink to="/terms">terms</AppLink> and{' '}
          <AppLink to="/privacy">privacy notice</AppLink>.
        </p>
      </form>
    </AuthCard>
  );
}

import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { loginBody, MESSAGES } from '@margins/common';
import { logIn } from '../../api/auth.ts';
import { ApiError, submitFailure, type FieldErrors } from '../../api/client.ts';
import { FormAlert, TextField, otherErrors } from '../../components/form/fields.tsx';
import { AppLink } from '../../components/layout/app-link.tsx';
import { usePageConfig } from '../../page-config.ts';
import { formValues, validate } from '../../lib/validate.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthCard, nextFrom } from './auth-card.tsx';
import { LoginLinkAction } from './login-link.tsx';

const FIELDS = ['email', 'password'] as const;

interface LoginRequest {
  email: string;
  password: string;
  next?: string;
}

/** Log in (/auth/login?next=): goes to the server's `next` on success. */
export function LoginPage() {
  const { data } = usePageConfig();
  const { search } = useLocation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  // Throttled (429): the owner can ask for a one-time log-in link instead of waiting.
  const [throttledEmail, setThrottledEmail] = useState<string | null>(null);
  const next = nextFrom(data, search);
  // A verification link opened in another browser confirms the address and sends it here.
  const verified = new URLSearchParams(search).get('verified') === '1';
  useDocumentTitle('Log in');

  const login = useMutation({
    mutationFn: (body: LoginRequest) => logIn(body),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const invalid = validate(loginBody, values);
    setErrors(invalid ?? {});
    setProblem(null);
    setThrottledEmail(null);
    if (invalid) return;
    try {
      const response = await login.mutateAsync({
        email: values.email ?? '',
        password: values.password ?? '',
        ...(next ? { next } : {}),
      });
      window.location.assign(response.next || '/dashboard');
    } catch (error) {
      const failure = submitFailure(error);
      setErrors(failure.errors);
      setProblem(failure.problem);
      if (error instanceof ApiError && error.status === 429) setThrottledEmail(values.email ?? '');
    }
  };

  const stray = otherErrors(errors, FIELDS);
  const signupLink = next ? `/auth/signup?next=${encodeURIComponent(next)}` : '/auth/signup';

  return (
    <AuthCard
      title="Welcome back"
      lead="Log in to pick up where your readers left off."
      footer={
        <>
          New to Margins? <AppLink to={signupLink}>Create an account</AppLink>
        </>
      }
    >
      <form noValidate onSubmit={handleSubmit} className="space-y-5" aria-label="Log in">
        {verified ? <FormAlert tone="success">{MESSAGES.verifiedLogIn}</FormAlert> : null}
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {throttledEmail !== null ? <LoginLinkAction email={throttledEmail} next={next} /> : null}
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
          autoComplete="current-password"
          errors={errors.password}
        />
        <button type="submit" className="btn btn-primary w-full" disabled={login.isPending}>
          {login.isPending ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </AuthCard>
  );
}

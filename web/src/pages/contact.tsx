import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { contactBody, MESSAGES, type ContactBody } from '@margins/common';
import { api, ApiError, type FieldErrors } from '../api/client.ts';
import { useFlash, useToast } from '../components/feedback/feedback.tsx';
import { FormAlert, TextAreaField, TextField, otherErrors } from '../components/form/fields.tsx';
import { PageContainer, PageHeading } from '../components/page-heading.tsx';
import { usePageConfig } from '../page-config.ts';
import { formValues, validate } from '../lib/validate.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

/** The contact page (/contact): a form that POSTs {name, email, subject, message}. */
export function ContactPage() {
  const { currentUser } = usePageConfig();
  const flash = useFlash();
  const toast = useToast();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState(false);
  useDocumentTitle('Contact');

  const send = useMutation({
    mutationFn: (body: ContactBody) => api.post('/contact', body),
  });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const invalid = validate(contactBody, values);
    setErrors(invalid ?? {});
    if (invalid) return;
    try {
      await send.mutateAsync(values as ContactBody);
      toast(MESSAGES.contactSent);
      setSent(true);
      const subject = form.elements.namedItem('subject');
      const message = form.elements.namedItem('message');
      if (subject instanceof HTMLInputElement) subject.value = '';
      if (message instanceof HTMLTextAreaElement) message.value = '';
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setErrors(error.errors);
        return;
      }
      flash(error instanceof ApiError ? error.error : MESSAGES.serverCommunication);
    }
  };

  const stray = otherErrors(errors, FIELDS);

  return (
    <PageContainer>
      <PageHeading
        eyebrow="Contact"
        title="Write to us"
        lead="A question about your account, an idea, a problem with a manuscript, or just a hello. A real person reads every message."
      />
      <form
        noValidate
        onSubmit={handleSubmit}
        className="card space-y-5 p-5 sm:p-8"
        aria-label="Contact form"
      >
        {sent ? (
          <FormAlert tone="success">{MESSAGES.contactSent} We’ll get back to you soon.</FormAlert>
        ) : null}
        {stray.length ? <FormAlert>{stray.join(' ')}</FormAlert> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Your name"
            name="name"
            autoComplete="name"
            defaultValue={currentUser?.display_name ?? ''}
            errors={errors.name}
            maxLength={120}
          />
          <TextField
            label="Email address"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={currentUser?.email ?? ''}
            errors={errors.email}
          />
        </div>
        <TextField label="Subject" name="subject" errors={errors.subject} maxLength={200} />
        <TextAreaField
          label="Message"
          name="message"
          rows={7}
          errors={errors.message}
          maxLength={5000}
        />
        <div className="flex items-center justify-end gap-3">
          <button type="submit" className="btn btn-primary" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send message'}
          </button>
        </div>
      </form>
    </PageContainer>
  );
}

import { useQuery } from '@tanstack/react-query';
import { MESSAGES } from '@margins/common';
import { ApiError } from '../api/client.ts';
import { fetchDevMail } from '../api/dev-mail.ts';
import { FormAlert } from '../components/form/fields.tsx';
import { PageContainer, PageHeading } from '../components/page-heading.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { linkify } from '../lib/linkify.tsx';
import { renderSafeHtml } from '../lib/safe-html.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/** The development mailbox (/dev/mail): every mail the server kept, newest first. */
export function DevMailPage() {
  useDocumentTitle('Development mailbox');
  const mail = useQuery({
    queryKey: ['dev-mail'],
    queryFn: fetchDevMail,
    refetchInterval: 5000,
    staleTime: 0,
  });
  const messages = [...(mail.data?.messages ?? [])].sort(
    (a, b) => Date.parse(b.created) - Date.parse(a.created) || b.id - a.id,
  );

  return (
    <PageContainer>
      <PageHeading eyebrow="Development" title="Mailbox" lead={MESSAGES.devMailLead}>
        <div className="mt-5">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void mail.refetch()}
            disabled={mail.isFetching}
          >
            {mail.isFetching ? 'Checking…' : 'Check for new mail'}
          </button>
        </div>
      </PageHeading>

      {mail.isError ? (
        <FormAlert>
          {mail.error instanceof ApiError ? mail.error.error : 'The mailbox could not be loaded.'}
        </FormAlert>
      ) : null}
      {mail.isPending ? <p className="text-muted">Opening the mailbox…</p> : null}
      {mail.isSuccess && messages.length === 0 ? (
        <div className="card p-8 text-center text-muted">
          <p className="font-serif text-lg">The mailbox is empty.</p>
          <p className="mt-1 text-sm">
            Sign up or send a contact message and it will show up here.
          </p>
        </div>
      ) : null}

      <ol className="space-y-5" aria-label="Messages">
        {messages.map((message) => (
          <li key={message.id}>
            <article className="card overflow-hidden" data-mail-id={message.id}>
              <header className="border-b border-line bg-sunken/60 px-5 py-4">
                <h2 className="font-serif text-lg font-semibold">{message.subject}</h2>
                <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted">
                  <div className="flex gap-1.5">
                    <dt className="font-medium">To</dt>
                    <dd className="text-ink" data-mail-to>
                      {message.to}
                    </dd>
                  </div>
                  <div>
                    <dt className="sr-only">Sent</dt>
                    <dd>
                      <time dateTime={message.created}>{formatDateTime(message.created)}</time>
                    </dd>
                  </div>
                </dl>
              </header>
              {message.html ? (
                <div className="mail-body px-5 py-4 font-serif text-[0.95rem] leading-relaxed break-words">
                  {renderSafeHtml(message.html)}
                </div>
              ) : null}
              <details className="border-t border-line px-5 py-3 text-sm" open={!message.html}>
                <summary className="cursor-pointer font-medium text-muted">Plain text</summary>
                <div className="mt-2 font-mono text-[0.8rem] leading-relaxed break-words whitespace-pre-wrap">
                  {linkify(message.text)}
                </div>
              </details>
            </article>
          </li>
        ))}
      </ol>
    </PageContainer>
  );
}

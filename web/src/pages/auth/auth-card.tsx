import type { ReactNode } from 'react';

/** The narrow card the sign-up, log-in and related pages sit in. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 pt-10 sm:pt-16">
      <div className="card relative overflow-hidden p-6 sm:p-9">
        <span
          aria-hidden="true"
          className="absolute inset-y-0 left-4 w-px bg-accent/30 sm:left-5"
        />
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {lead ? <div className="mt-2 font-serif leading-relaxed text-muted">{lead}</div> : null}
        <div className="mt-7">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-muted">{footer}</div> : null}
    </div>
  );
}

/** The server's `next` for this page: from the page data, else from the query string. */
export function nextFrom(data: Record<string, unknown>, search: string): string | undefined {
  if (typeof data.next === 'string' && data.next) return data.next;
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : undefined;
}

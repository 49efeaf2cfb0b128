import type { ReactNode } from 'react';

/** A page's heading block: an eyebrow line, the serif title and an optional lead. */
export function PageHeading({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mb-8 sm:mb-10">
      {eyebrow ? <p className="eyebrow mb-3">{eyebrow}</p> : null}
      <h1 className="text-3xl leading-tight font-semibold tracking-tight sm:text-[2.6rem]">
        {title}
      </h1>
      {lead ? (
        <p className="mt-4 max-w-2xl font-serif text-lg leading-relaxed text-muted">{lead}</p>
      ) : null}
      {children}
    </div>
  );
}

/** The centred column most pages sit in. */
export function PageContainer({
  children,
  width = 'normal',
}: {
  children: ReactNode;
  width?: 'narrow' | 'normal' | 'wide';
}) {
  const widths = { narrow: 'max-w-lg', normal: 'max-w-3xl', wide: 'max-w-6xl' };
  return (
    <div className={`mx-auto w-full ${widths[width]} px-4 pt-10 sm:px-6 sm:pt-16`}>{children}</div>
  );
}

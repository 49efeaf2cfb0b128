import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { isClientSideUrl } from '../../routes.ts';

type AppLinkProps = Omit<ComponentProps<typeof Link>, 'to' | 'reloadDocument'> & { to: string };

/**
 * A link inside Margins: navigates in the app when the target page needs no server data,
 * and loads the document (so the server injects the page's data) otherwise.
 */
export function AppLink({ to, ...props }: AppLinkProps) {
  return <Link to={to} reloadDocument={!isClientSideUrl(to)} {...props} />;
}

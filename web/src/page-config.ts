import { createContext, useContext } from 'react';
import { pageConfig, type PageConfig } from '@margins/common';

/** The configuration a page gets when the server injected none (Vite dev server, tests). */
export function anonymousConfig(page: string, data: Record<string, unknown> = {}): PageConfig {
  return {
    page,
    currentUserId: null,
    current_user_id: null,
    currentUser: null,
    loginState: 'anonymous',
    productsEnabled: false,
    invitesEnabled: false,
    data,
  };
}

/**
 * Reads the server-provided page configuration of SPEC §3 from the inert
 * `<script id="page-config" type="application/json">` the server puts into the page.
 * Returns null when there is none or it does not match the schema.
 */
export function readPageConfig(doc: Document = document): PageConfig | null {
  const element = doc.getElementById('page-config');
  if (!element?.textContent) return null;
  try {
    const parsed = pageConfig.safeParse(JSON.parse(element.textContent));
    if (parsed.success) return parsed.data;
    console.error('Invalid page configuration', parsed.error.issues);
  } catch (error) {
    console.error('Unreadable page configuration', error);
  }
  return null;
}

/** The page configuration in force for the page being shown. */
export const PageConfigContext = createContext<PageConfig>(anonymousConfig('not-found'));

/** The page configuration of the page being shown (its page name, data and user). */
export function usePageConfig(): PageConfig {
  return useContext(PageConfigContext);
}

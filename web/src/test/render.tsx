import type { ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach } from 'vitest';
import type { PageConfig } from '@margins/common';
import { createQueryClient } from '../api/query-client.ts';
import { FeedbackProvider } from '../components/feedback/feedback.tsx';
import { anonymousConfig, PageConfigContext } from '../page-config.ts';

// Vitest runs without globals here, so Testing Library cannot clean up by itself.
afterEach(cleanup);

/** Renders UI inside the app's providers: query client, flash and toasts, page config, router. */
export function renderWithApp(
  ui: ReactElement,
  { config = anonymousConfig('home'), url = '/' }: { config?: PageConfig; url?: string } = {},
) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <FeedbackProvider>
        <PageConfigContext.Provider value={config}>
          <MemoryRouter initialEntries={[url]}>{ui}</MemoryRouter>
        </PageConfigContext.Provider>
      </FeedbackProvider>
    </QueryClientProvider>,
  );
}

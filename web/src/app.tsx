import { Suspense, useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider, ScrollRestoration, useLocation } from 'react-router';
import type { PageConfig } from '@margins/common';
import { FeedbackProvider } from './components/feedback/feedback.tsx';
import { Layout } from './components/layout/layout.tsx';
import { anonymousConfig, PageConfigContext } from './page-config.ts';
import { pageComponent } from './pages/index.ts';
import { PAGE_ROUTES, routeFor } from './routes.ts';

/**
 * Decides which page shows: at the URL the document was loaded for, the server's page
 * configuration; after an in-app navigation, the page of the route with no page data.
 */
function PageFrame({ documentConfig }: { documentConfig: PageConfig | null }) {
  const location = useLocation();
  const [documentUrl] = useState(() => location.pathname + location.search);
  const route = routeFor(location.pathname);
  const atDocumentUrl = location.pathname + location.search === documentUrl;

  let config: PageConfig;
  if (documentConfig && atDocumentUrl) config = documentConfig;
  else if (documentConfig) config = { ...documentConfig, page: route.page, data: {} };
  else config = anonymousConfig(route.page);

  const Page = pageComponent(config.page);
  return (
    <PageConfigContext.Provider value={config}>
      <Layout page={config.page}>
        {/* Pages are chunks of their own; the server preloads the one it renders. */}
        <Suspense fallback={<div aria-busy="true" className="min-h-[60vh]" />}>
          {/* A fresh page per URL, but the admin area routes inside itself: one instance. */}
          <Page key={config.page === 'admin' ? 'admin' : location.pathname} />
        </Suspense>
      </Layout>
    </PageConfigContext.Provider>
  );
}

function Root({ documentConfig }: { documentConfig: PageConfig | null }) {
  return (
    <>
      <PageFrame documentConfig={documentConfig} />
      <ScrollRestoration />
    </>
  );
}

/** The whole app: server state, flash and toasts, and the router over the page URLs. */
export function createApp(documentConfig: PageConfig | null, queryClient: QueryClient) {
  const router = createBrowserRouter([
    {
      element: <Root documentConfig={documentConfig} />,
      children: PAGE_ROUTES.map((route) => ({ path: route.path, element: null })),
    },
  ]);
  return (
    <QueryClientProvider client={queryClient}>
      <FeedbackProvider>
        <RouterProvider router={router} />
      </FeedbackProvider>
    </QueryClientProvider>
  );
}

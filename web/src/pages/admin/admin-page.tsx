import { useMemo, useState } from 'react';
import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { Admin, CustomRoutes, Resource, memoryStore, type RaRecord } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { usePageConfig } from '../../page-config.ts';
import type { SectionMeta } from './admin-types.ts';
import { AdminDashboard } from './admin-dashboard.tsx';
import { AdminLayout } from './admin-layout.tsx';
import { AdminSetupContext, itemLabel, type AdminSetup } from './admin-meta.ts';
import { adminTheme, useAppThemeMode } from './admin-theme.ts';
import { createAdminDataProvider } from './data-provider.ts';
import { SectionList } from './section-list.tsx';
import { SectionCreate, SectionEdit, SectionShow } from './section-forms.tsx';
import { sectionViewScreens } from './section-views.ts';
import './admin.css';

// One data provider and store for the page's life: the admin page is not remounted while
// one moves between its screens, and its lists keep their filters when one comes back.
let knownSections: ReadonlyMap<string, SectionMeta> = new Map();
const dataProvider = createAdminDataProvider(() => knownSections);
const store = memoryStore();

/**
 * Material UI's styles, written at run time by Emotion as <style> elements, carry the nonce
 * that the server allowed for this document (server/src/modules/admin/page-styles.ts): the
 * app's CSP refuses any other inline style. They go first in <head>, so admin.css wins.
 */
function styleCache(nonce: unknown): EmotionCache {
  return createCache({
    key: 'ra',
    nonce: typeof nonce === 'string' && nonce ? nonce : undefined,
    prepend: true,
  });
}

/**
 * The admin area (/admin/…), its own chunk: the server answers 404 to everyone but staff,
 * so only they load it. It reads GET /admin/api/_meta and builds one generic list, details,
 * create and edit screen per section the caller's role allows; the index is the dashboard.
 */
export function AdminPage() {
  useDocumentTitle('Admin');
  // The document's configuration has the nonce; later screens of the admin area do not.
  const { data } = usePageConfig();
  const [cache] = useState(() => styleCache(data.styleNonce));
  const mode = useAppThemeMode();
  const theme = useMemo(() => adminTheme(mode), [mode]);
  const meta = useQuery({ queryKey: ['admin-meta'], queryFn: () => dataProvider.meta() });

  const setup = useMemo<AdminSetup | null>(() => {
    if (!meta.data) return null;
    knownSections = new Map(meta.data.sections.map((section) => [section.name, section]));
    return {
      meta: meta.data,
      sections: knownSections,
      dataProvider,
      views: sectionViewScreens(meta.data),
    };
  }, [meta.data]);

  if (meta.isError) {
    return (
      <p role="alert" className="admin-problem">
        {meta.error instanceof Error ? meta.error.message : ADMIN_UI_MESSAGES.loadFailed}
      </p>
    );
  }
  if (!setup) return <div aria-busy="true" className="min-h-[60vh]" />;
  if (setup.meta.sections.length === 0) {
    return <p className="admin-problem">{ADMIN_UI_MESSAGES.noSections}</p>;
  }

  return (
    <CacheProvider value={cache}>
      <AdminSetupContext.Provider value={setup}>
        {/* Our router matched /admin/*; react-admin's routes are relative to this one. */}
        <Routes>
          <Route
            path="/admin/*"
            element={
              <Admin
                basename="/admin"
                dataProvider={dataProvider}
                store={store}
                // A moderator lands on their work (the report queue); an admin on the numbers.
                dashboard={
                  setup.meta.role === 'moderator' && setup.views[0]
                    ? setup.views[0].Screen
                    : AdminDashboard
                }
                layout={AdminLayout}
                theme={theme}
                darkTheme={null}
                disableTelemetry
                title="Margins admin"
              >
                <CustomRoutes>
                  {setup.views.map(({ path, Screen }) => (
                    <Route key={path} path={path} element={<Screen />} />
                  ))}
                </CustomRoutes>
                {setup.meta.sections.map((section) => (
                  <Resource
                    key={section.name}
                    name={section.name}
                    options={{ label: section.label }}
                    recordRepresentation={(record: RaRecord) => itemLabel(section, record)}
                    list={SectionList}
                    show={SectionShow}
                    edit={section.canUpdate ? SectionEdit : undefined}
                    create={section.canCreate ? SectionCreate : undefined}
                  />
                ))}
              </Admin>
            }
          />
        </Routes>
      </AdminSetupContext.Provider>
    </CacheProvider>
  );
}

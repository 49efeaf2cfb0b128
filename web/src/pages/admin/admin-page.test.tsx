import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderWithApp } from '../../test/render.tsx';
import type { AdminMeta, SectionMeta } from './admin-types.ts';
import { AdminPage } from './admin-page.tsx';

// The screens come from _meta alone: a section the UI has never heard of gets its list,
// columns, filters, bulk actions and exports. The answers below are the contract's shapes.
const field = {
  list: true,
  sortable: true,
  filterable: false,
  searchable: false,
  create: true,
  edit: true,
  inline: false,
  required: false,
};
const shelf: SectionMeta = {
  name: 'shelf',
  label: 'Shelves',
  labelField: 'title',
  fields: [
    { ...field, name: 'title', label: 'Title', type: 'text', searchable: true, required: true },
    {
      ...field,
      name: 'kind',
      label: 'Kind',
      type: 'enum',
      choices: ['wood', 'steel'],
      filterable: true,
    },
    { ...field, name: 'hidden', label: 'Hidden', type: 'boolean', inline: true },
    { ...field, name: 'secret', label: 'Secret', type: 'text', list: false },
  ],
  bulkActions: [{ name: 'hide', label: 'Hide', confirm: 'Hide these shelves?' }],
  exports: ['csv', 'xlsx'],
  canCreate: true,
  canUpdate: true,
  canDelete: false,
  views: [],
  defaultSort: 'title',
  defaultOrder: 'asc',
};
const meta: AdminMeta = { role: 'admin', sections: [shelf] };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

// MUI in jsdom is slow on a busy machine: generous waits, never a fixed sleep.
describe('AdminPage', { timeout: 30_000 }, () => {
  let requested: string[];

  beforeEach(() => {
    requested = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        requested.push(url);
        if (url === '/admin/api/_meta') return json(meta);
        if (url === '/admin/api/_dashboard') {
          return json({
            metrics: [
              {
                name: 'signups',
                label: 'Sign-ups',
                total: 1234,
                series: [
                  { date: '2026-11-23', count: 2 },
                  { date: '2026-11-24', count: 5 },
                ],
              },
            ],
          });
        }
        if (url.startsWith('/admin/api/shelf?')) {
          return json({
            items: [
              { id: 1, title: 'Oak', kind: 'wood', hidden: false, secret: 's' },
              { id: 2, title: 'Iron', kind: 'steel', hidden: true, secret: 't' },
            ],
            total: 2,
            page: {},
          });
        }
        return json({ error: 'Not found.' }, 404);
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the dashboard with each metric and its trend', async () => {
    renderWithApp(<AdminPage />, { url: '/admin/' });
    const card = await screen.findByRole('heading', { name: 'Sign-ups' }, { timeout: 15_000 });
    const metric = card.closest('li') as HTMLElement;
    expect(within(metric).getByText('1,234')).toBeTruthy();
    expect(within(metric).getByRole('img', { name: /Sign-ups, last 2 days: 2, 5/ })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Admin sections' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shelves' }).getAttribute('href')).toBe('/admin/shelf');
  });

  it("builds a section's list from its meta: columns, sort, search, exports", async () => {
    renderWithApp(<AdminPage />, { url: '/admin/shelf' });
    expect(await screen.findByText('Oak', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('Iron')).toBeTruthy();
    // Listed fields only; the inline boolean is a switch in its cell.
    expect(screen.queryByText('Secret')).toBeNull();
    expect(screen.getByRole('switch', { name: 'Hidden of #2' })).toHaveProperty('checked', true);
    await waitFor(() =>
      expect(requested).toContain('/admin/api/shelf?page=1&per_page=25&sort=title&order=asc'),
    );
    const csv = screen.getByRole('link', { name: 'Export CSV' });
    expect(csv.getAttribute('href')).toBe('/admin/api/shelf/export/csv?sort=title&order=asc');
    expect(screen.getByRole('link', { name: 'Export XLSX' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Export JSON' })).toBeNull();
    expect(screen.getByRole('link', { name: /Create/ })).toBeTruthy();
  });
});

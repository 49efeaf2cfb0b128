import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import type { SectionMeta } from './admin-types.ts';
import {
  createAdminDataProvider,
  exportUrl,
  listSearchParams,
  writablePayload,
} from './data-provider.ts';

function section(overrides: Partial<SectionMeta> = {}): SectionMeta {
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
  return {
    name: 'genre',
    label: 'Genres',
    labelField: 'name',
    fields: [
      { ...field, name: 'name', label: 'Name', type: 'text' },
      { ...field, name: 'position', label: 'Position', type: 'number', create: false },
      { ...field, name: 'createdAt', label: 'Created', type: 'date', create: false, edit: false },
    ],
    bulkActions: [],
    exports: ['csv', 'json', 'xlsx'],
    canCreate: true,
    canUpdate: true,
    canDelete: true,
    views: [],
    defaultSort: 'id',
    defaultOrder: 'desc',
    ...overrides,
  };
}

describe('listSearchParams (react-admin list request → the list contract)', () => {
  it('maps paging, sort with a lower-case order, q and filters', () => {
    const params = listSearchParams({
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'createdAt', order: 'ASC' },
      filter: { q: '  ada ', role: 'moderator', suspended: false, genreId: 7 },
    });
    expect(params.toString()).toBe(
      'page=3&per_page=25&sort=createdAt&order=asc&q=ada&role=moderator&suspended=false&genreId=7',
    );
  });

  it('leaves out empty filters, so a cleared input filters nothing', () => {
    const params = listSearchParams({
      pagination: { page: 1, perPage: 10 },
      filter: { q: '   ', role: '', flag: null, other: undefined, nested: { a: 1 } },
    });
    expect([...params.keys()]).toEqual(['page', 'per_page']);
  });

  it('sends anything but ASC as desc, and dates as ISO strings', () => {
    const params = listSearchParams({
      sort: { field: 'id', order: 'DESC' },
      filter: { after: new Date('2026-01-02T03:04:05.000Z'), ids: [1, 2] },
    });
    expect(params.get('order')).toBe('desc');
    expect(params.get('after')).toBe('2026-01-02T03:04:05.000Z');
    expect(params.getAll('ids')).toEqual(['1', '2']);
  });
});

describe('exportUrl', () => {
  it('carries the filters, search and sort but not the page', () => {
    const url = exportUrl('invite-code', 'xlsx', {
      pagination: { page: 4, perPage: 25 },
      sort: { field: 'code', order: 'ASC' },
      filter: { q: 'a&b' },
    });
    expect(url).toBe('/admin/api/invite-code/export/xlsx?sort=code&order=asc&q=a%26b');
  });

  it('has no query string when nothing is filtered or sorted', () => {
    expect(exportUrl('user', 'csv', {})).toBe('/admin/api/user/export/csv');
  });
});

describe('writablePayload', () => {
  const record = { id: 4, name: 'Noir', position: 2, createdAt: '2026-01-01T00:00:00Z' };

  it('sends only the fields the form may set', () => {
    expect(writablePayload(section(), record, 'edit')).toEqual({ name: 'Noir', position: 2 });
    expect(writablePayload(section(), record, 'create')).toEqual({ name: 'Noir' });
  });

  it('sends an emptied non-text input as null', () => {
    expect(writablePayload(section(), { name: '', position: '' }, 'edit')).toEqual({
      name: '',
      position: null,
    });
  });
});

describe('the data provider over fetch', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const respond = (status: number, body: unknown) =>
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  const provider = createAdminDataProvider(() => new Map([['genre', section()]]));

  beforeEach(() => {
    document.cookie = 'csrf_token=admin-token-1234567890';
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads a list page as react-admin data and total', async () => {
    respond(200, { items: [{ id: 1, name: 'Noir' }], total: 41, page: {} });
    const result = await provider.getList('genre', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({ data: [{ id: 1, name: 'Noir' }], total: 41 });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      '/admin/api/genre?page=2&per_page=20&sort=name&order=asc',
    );
  });

  it('turns 400 field errors into react-admin form errors', async () => {
    respond(400, { error: 'Please check your fields.', errors: { name: ['Enter a name.'] } });
    const saving = provider.update('genre', {
      id: 4,
      data: { name: '', createdAt: 'x' },
      previousData: { id: 4 },
    });
    const error: unknown = await saving.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toMatchObject({
      errors: { name: 'Enter a name.', root: { serverError: 'Please check your fields.' } },
    });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ name: '' });
  });

  it('sends bulk actions with the CSRF header and their input', async () => {
    respond(200, { affected: 2 });
    await expect(provider.bulk('user', 'suspend', [3, 5], { reason: 'Spam' })).resolves.toEqual({
      affected: 2,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/admin/api/user/bulk');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('admin-token-1234567890');
    expect(JSON.parse(String(init.body))).toEqual({
      action: 'suspend',
      ids: [3, 5],
      input: { reason: 'Spam' },
    });
  });

  it('leaves out references that are gone when reading many', async () => {
    respond(200, { item: { id: 1, name: 'Noir' } });
    respond(404, { error: 'Not found.' });
    const result = await provider.getMany('genre', { ids: [1, 2] });
    expect(result.data).toEqual([{ id: 1, name: 'Noir' }]);
  });

  it('asks the lookup with the field and the typed text', async () => {
    respond(200, { options: [{ id: 9, label: 'Ada' }] });
    await expect(provider.lookup('manuscript', 'authorId', 'ad')).resolves.toEqual([
      { id: 9, label: 'Ada' },
    ]);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      '/admin/api/manuscript/lookup?field=authorId&q=ad',
    );
  });
});

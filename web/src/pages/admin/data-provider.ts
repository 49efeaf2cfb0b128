import {
  HttpError,
  type CreateParams,
  type DataProvider,
  type DeleteParams,
  type Identifier,
  type RaRecord,
  type UpdateParams,
} from 'react-admin';
import { ApiError, apiRequest } from '../../api/client.ts';
import type {
  AdminDashboard,
  AdminItem,
  AdminMeta,
  ExportType,
  LookupOption,
  SectionMeta,
} from './admin-types.ts';

/** Where the admin API lives (API.md "Admin"). */
const ADMIN_API = '/admin/api';

/** What react-admin asks of a list: its page, sort and filter values. */
interface ListRequest {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

/** A filter value as a query string value; undefined when it filters nothing. */
function queryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The list contract's query string for a react-admin list request: page, per_page,
 * sort, order (lower case), q and one field per filter. Empty filters are left out, so
 * clearing a filter input does not send `field=` (which the server would refuse).
 */
export function listSearchParams(request: ListRequest, paged = true): URLSearchParams {
  const params = new URLSearchParams();
  if (paged && request.pagination) {
    params.set('page', String(request.pagination.page));
    params.set('per_page', String(request.pagination.perPage));
  }
  if (request.sort?.field) {
    params.set('sort', request.sort.field);
    params.set('order', request.sort.order.toLowerCase() === 'asc' ? 'asc' : 'desc');
  }
  for (const [field, raw] of Object.entries(request.filter ?? {})) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      const text = queryValue(value);
      if (text !== undefined) params.append(field, text);
    }
  }
  return params;
}

/** The URL of a section's list (or of its items when `id` is given). */
function sectionUrl(section: string, id?: Identifier): string {
  const base = `${ADMIN_API}/${encodeURIComponent(section)}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(String(id))}`;
}

/** The export URL of a section's list as it is filtered and sorted now (the browser downloads it). */
export function exportUrl(section: string, type: ExportType, request: ListRequest): string {
  const search = listSearchParams(request, false).toString();
  return `${sectionUrl(section)}/export/${type}${search ? `?${search}` : ''}`;
}

/**
 * The body of a create or update: only the fields the section lets that form set, so a
 * record's read-only fields (id, dates, counts) never travel back to the server.
 */
export function writablePayload(
  section: SectionMeta | undefined,
  data: Record<string, unknown>,
  mode: 'create' | 'edit',
): Record<string, unknown> {
  if (!section) return { ...data };
  const payload: Record<string, unknown> = {};
  for (const field of section.fields) {
    if (!field[mode] || !(field.name in data)) continue;
    const value = data[field.name];
    payload[field.name] = value === '' && field.type !== 'text' ? null : value;
  }
  return payload;
}

/**
 * An ApiError as react-admin's HttpError: field errors under `body.errors` (react-admin
 * shows them under the form's fields), the server's sentence as the notification.
 */
function toHttpError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields = Object.fromEntries(
    Object.entries(error.errors).map(([field, messages]) => [field, messages.join(' ')]),
  );
  const named = Object.keys(fields).length > 0;
  return new HttpError(error.error, error.status, {
    error: error.error,
    errors: named ? { ...fields, root: { serverError: error.error } } : undefined,
  });
}

async function call<T>(path: string, options: Parameters<typeof apiRequest>[1] = {}): Promise<T> {
  try {
    return await apiRequest<T>(path, options);
  } catch (error) {
    throw toHttpError(error);
  }
}

/**
 * The server's items as the record type react-admin's caller asks for: the JSON is the
 * section's presented item, which is what every caller of a section expects.
 */
function asRecords<RecordType extends RaRecord>(items: AdminItem[]): RecordType[] {
  return items as unknown as RecordType[];
}

/** One item as the record type react-admin's caller asks for (see asRecords). */
function asRecord<RecordType extends RaRecord>(item: AdminItem): RecordType {
  return item as unknown as RecordType;
}

interface ListAnswer {
  items: AdminItem[];
  total: number;
}

/** The admin area's own calls beside react-admin's nine. */
export interface AdminDataProvider extends DataProvider {
  meta(): Promise<AdminMeta>;
  dashboard(): Promise<AdminDashboard>;
  bulk(
    section: string,
    action: string,
    ids: Identifier[],
    input?: { reason?: string },
  ): Promise<{ affected: number }>;
  lookup(section: string, field: string, q: string): Promise<LookupOption[]>;
  updateField(section: string, id: Identifier, name: string, value: unknown): Promise<AdminItem>;
  models(): Promise<Array<{ name: string; label: string }>>;
  /** A section's own screen (GET /admin/api/S/views/:view), e.g. the report queue. */
  view<T>(section: string, view: string, query?: Record<string, string>): Promise<T>;
}

/**
 * react-admin's data provider over /admin/api: the list contract for lists, JSON in and
 * out through the app's fetch client (cookies, the CSRF header on writes). `sections`
 * gives each section's writable fields once _meta has been read.
 */
export function createAdminDataProvider(
  sections: () => ReadonlyMap<string, SectionMeta>,
): AdminDataProvider {
  const getOne = async (resource: string, id: Identifier) => {
    const { item } = await call<{ item: AdminItem }>(sectionUrl(resource, id));
    return item;
  };
  const list = async <RecordType extends RaRecord>(resource: string, request: ListRequest) => {
    const search = listSearchParams(request).toString();
    const answer = await call<ListAnswer>(`${sectionUrl(resource)}?${search}`);
    return { data: asRecords<RecordType>(answer.items), total: answer.total };
  };
  const remove = (resource: string, id: Identifier) =>
    call<{ ok: true }>(sectionUrl(resource, id), { method: 'DELETE' });

  const provider: AdminDataProvider = {
    getList: (resource, params) => list(resource, params),
    getOne: async <RecordType extends RaRecord>(resource: string, params: { id: Identifier }) => {
      return { data: asRecord<RecordType>(await getOne(resource, params.id)) };
    },
    // No batch read in the contract: one details call per id; an item gone meanwhile is left out.
    getMany: async (resource, params) => {
      const found = await Promise.all(
        params.ids.map((id) =>
          getOne(resource, id).catch((error: unknown) => {
            if (error instanceof HttpError && error.status === 404) return null;
            throw error;
          }),
        ),
      );
      return { data: asRecords(found.filter((item): item is AdminItem => item !== null)) };
    },
    getManyReference: (resource, params) =>
      list(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }),
    create: async <
      RecordType extends Omit<RaRecord, 'id'>,
      ResultRecordType extends RaRecord = RecordType & { id: Identifier },
    >(
      resource: string,
      params: CreateParams,
    ) => {
      const body = writablePayload(sections().get(resource), params.data, 'create');
      const { item } = await call<{ item: AdminItem }>(sectionUrl(resource), {
        method: 'POST',
        body,
      });
      return { data: asRecord<ResultRecordType>(item) };
    },
    update: async <RecordType extends RaRecord>(resource: string, params: UpdateParams) => {
      const body = writablePayload(sections().get(resource), params.data, 'edit');
      const { item } = await call<{ item: AdminItem }>(sectionUrl(resource, params.id), {
        method: 'PUT',
        body,
      });
      return { data: asRecord<RecordType>(item) };
    },
    updateMany: () => Promise.reject(new HttpError('Edit the items one by one.', 400)),
    delete: async <RecordType extends RaRecord>(
      resource: string,
      params: DeleteParams<RecordType>,
    ) => {
      await remove(resource, params.id);
      return { data: params.previousData ?? asRecord<RecordType>({ id: Number(params.id) }) };
    },
    deleteMany: async (resource, params) => {
      await Promise.all(params.ids.map((id) => remove(resource, id)));
      return { data: params.ids };
    },
    meta: () => call<AdminMeta>(`${ADMIN_API}/_meta`),
    dashboard: () => call<AdminDashboard>(`${ADMIN_API}/_dashboard`),
    bulk: (section, action, ids, input) =>
      call<{ affected: number }>(`${sectionUrl(section)}/bulk`, {
        method: 'POST',
        body: input ? { action, ids, input } : { action, ids },
      }),
    lookup: async (section, field, q) => {
      const search = new URLSearchParams({ field, q }).toString();
      const answer = await call<{ options: LookupOption[] }>(
        `${sectionUrl(section)}/lookup?${search}`,
      );
      return answer.options;
    },
    updateField: async (section, id, name, value) => {
      const { item } = await call<{ item: AdminItem }>(`${sectionUrl(section, id)}/field`, {
        method: 'POST',
        body: { name, value },
      });
      return item;
    },
    view: <T>(section: string, view: string, query: Record<string, string> = {}) => {
      const search = new URLSearchParams(query).toString();
      const path = `${sectionUrl(section)}/views/${encodeURIComponent(view)}`;
      return call<T>(search ? `${path}?${search}` : path);
    },
    models: async () => {
      const answer = await call<{ models: Array<{ name: string; label: string }> }>(
        `${sectionUrl('moderation-report')}/models`,
      );
      return answer.models;
    },
  };
  return provider;
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIST_MAX_PAGE } from '../constants.ts';
import { listQuery, pageInfoFor, queryBoolean } from './list.ts';

const query = listQuery({
  sort: ['created', 'title'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  filters: { status: z.enum(['open', 'closed']).optional(), mine: queryBoolean.optional() },
  maxPerPage: 50,
});

/** Field → messages of a failed parse. */
function fieldErrors(input: unknown): Record<string, string[]> {
  const parsed = query.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues)
    (errors[String(issue.path[0])] ??= []).push(issue.message);
  return errors;
}

describe('listQuery', () => {
  it('fills the defaults', () => {
    expect(query.parse({})).toEqual({ page: 1, per_page: 20, sort: 'created', order: 'desc' });
  });

  it('reads a query string: numbers, booleans, filters, a trimmed q', () => {
    expect(
      query.parse({
        page: '3',
        per_page: '50',
        sort: 'title',
        order: 'asc',
        status: 'open',
        mine: 'true',
        q: '  salt road ',
      }),
    ).toEqual({
      page: 3,
      per_page: 50,
      sort: 'title',
      order: 'asc',
      status: 'open',
      mine: true,
      q: 'salt road',
    });
  });

  it('refuses an unknown field, naming it (no silent "everything")', () => {
    expect(fieldErrors({ owner_id: '1' })).toEqual({
      owner_id: ['This list cannot be sorted or filtered by this field.'],
    });
    expect(fieldErrors({ 'filter[password_hash]': 'x' })).toHaveProperty(['filter[password_hash]']);
  });

  it('refuses a sort field outside the list, SQL included', () => {
    expect(fieldErrors({ sort: 'password_hash' })).toEqual({
      sort: ['Sort by one of: created, title.'],
    });
    expect(fieldErrors({ sort: 'created; drop table users' })).toHaveProperty('sort');
    expect(fieldErrors({ order: 'desc nulls first' })).toEqual({
      order: ['Order is asc or desc.'],
    });
    expect(fieldErrors({ status: "open' or '1'='1" })).toHaveProperty('status');
  });

  it('refuses page 0, negative, fractional, huge and non-numeric pages with a message', () => {
    expect(fieldErrors({ page: '0' })).toEqual({ page: ['Pages start at 1.'] });
    expect(fieldErrors({ page: '-1' })).toEqual({ page: ['Pages start at 1.'] });
    expect(fieldErrors({ page: '1.5' })).toEqual({ page: ['Enter a whole page number.'] });
    expect(fieldErrors({ page: String(LIST_MAX_PAGE + 1) })).toEqual({
      page: [`Pages go up to ${LIST_MAX_PAGE}.`],
    });
    expect(fieldErrors({ page: '1e400' })).toHaveProperty('page');
    expect(fieldErrors({ page: '99999999999999999999999' })).toHaveProperty('page');
    expect(fieldErrors({ page: 'two' })).toHaveProperty('page');
    expect(fieldErrors({ page: ['1', '2'] })).toHaveProperty('page');
  });

  it('bounds per_page by the list', () => {
    expect(fieldErrors({ per_page: '51' })).toEqual({
      per_page: ['Show at most 50 items a page.'],
    });
    expect(fieldErrors({ per_page: '0' })).toEqual({ per_page: ['Show at least 1 item a page.'] });
  });

  it('limits the search text', () => {
    expect(fieldErrors({ q: 'x'.repeat(201) })).toHaveProperty('q');
    // Pattern characters are text to the schema; the server escapes them (list-query.ts).
    expect(query.parse({ q: "%_\\' OR 1=1 --" }).q).toBe("%_\\' OR 1=1 --");
  });
});

describe('pageInfoFor', () => {
  it('gives what a pager needs', () => {
    expect(pageInfoFor(95, 5, 10)).toEqual({
      current: 5,
      per_page: 10,
      first_page: 1,
      last_page: 10,
      iter_pages: [1, null, 3, 4, 5, 6, 7, null, 10],
      prev: 4,
      next: 6,
    });
    expect(pageInfoFor(30, 1, 10).iter_pages).toEqual([1, 2, 3]);
  });

  it('answers the last page past it, and page 1 of an empty list', () => {
    expect(pageInfoFor(25, 999, 10)).toMatchObject({ current: 3, last_page: 3, next: null });
    expect(pageInfoFor(0, 7, 10)).toEqual({
      current: 1,
      per_page: 10,
      first_page: 1,
      last_page: 1,
      iter_pages: [1],
      prev: null,
      next: null,
    });
  });

  it('stays small for a huge list', () => {
    expect(pageInfoFor(10_000_000, 50_000, 1).iter_pages).toHaveLength(9);
  });
});

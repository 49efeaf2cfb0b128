import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TestApp } from '../../test/harness.ts';
import { paymentSectionFactories } from './payments-test-helpers.ts';
import { sectionFactories, staffClients, type StaffClients } from './test-helpers.ts';

/**
 * The authorization matrix of the admin area: every section × every view × {anonymous, user,
 * moderator, admin}, each cell written out below (not derived from the registry, so that a
 * change of the policy has to change this table too).
 */

const SECTIONS = [
  'bookmark',
  'comment',
  'genre',
  'invite-code',
  'manuscript',
  'user',
  'report-reason',
  'moderation-report',
  'audit-log',
  'feature',
  'product',
  'coupon',
  'gift',
  'waiting-list',
] as const;
type Section = (typeof SECTIONS)[number];
const VIEWS = [
  'list',
  'details',
  'create',
  'update',
  'delete',
  'bulk',
  'export',
  'lookup',
  'field',
  'models',
] as const;
type View = (typeof VIEWS)[number];
type Outcome = 'allowed' | 403 | 404;

const ALL: View[] = [...VIEWS];
/** What each section has at all (an admin gets 403 for a write a section does not take). */
const HAS: Record<Section, View[]> = {
  bookmark: ['list', 'details', 'create', 'update', 'delete', 'bulk', 'export', 'lookup', 'field'],
  comment: ['list', 'details', 'delete', 'bulk', 'export', 'lookup'],
  genre: ['list', 'details', 'create', 'update', 'delete', 'bulk', 'export', 'lookup', 'field'],
  'invite-code': ['list', 'details', 'create', 'update', 'delete', 'bulk', 'export', 'lookup'],
  manuscript: ['list', 'details', 'update', 'delete', 'bulk', 'export', 'lookup', 'field'],
  user: ['list', 'details', 'create', 'update', 'delete', 'bulk', 'export', 'lookup', 'field'],
  'report-reason': ALL.filter((view) => view !== 'models'),
  'moderation-report': ALL.filter((view) => view !== 'create'),
  'audit-log': ['list', 'details', 'export', 'lookup'],
  feature: ['list', 'details', 'update', 'export', 'lookup', 'field'],
  product: ['list', 'details', 'create', 'update', 'export', 'lookup', 'field'],
  coupon: ['list', 'details', 'create', 'update', 'delete', 'bulk', 'export', 'lookup', 'field'],
  gift: ['list', 'details', 'export', 'lookup'],
  'waiting-list': ['list', 'details', 'delete', 'bulk', 'export', 'lookup'],
};
/** What a moderator may use (admin-contract.md). */
const MODERATOR: Record<Section, View[]> = {
  bookmark: [],
  comment: ['list', 'details', 'lookup', 'bulk'],
  genre: [],
  'invite-code': [],
  manuscript: ['list', 'details', 'lookup', 'bulk'],
  user: ['list', 'details', 'lookup', 'bulk'],
  'report-reason': ALL,
  'moderation-report': ALL,
  'audit-log': [],
  feature: [],
  // Money and the waiting list's addresses: never a moderator's.
  product: [],
  coupon: [],
  gift: [],
  'waiting-list': [],
};

function expected(
  role: 'anonymous' | 'user' | 'moderator' | 'admin',
  section: Section,
  view: View,
): Outcome {
  if (role === 'anonymous' || role === 'user') return 404;
  // The models view exists on the moderation report only: elsewhere it is an unknown path.
  if (view === 'models' && section !== 'moderation-report') return 404;
  if (role === 'moderator' && !MODERATOR[section].includes(view)) return 403;
  return HAS[section].includes(view) ? 'allowed' : 403;
}

/** The bulk action each role tries (one it may run where there is one). */
const BULK_ACTION: Record<Section, { admin: string; moderator: string }> = {
  bookmark: { admin: 'delete', moderator: 'delete' },
  comment: { admin: 'flag', moderator: 'flag' },
  genre: { admin: 'delete', moderator: 'delete' },
  'invite-code': { admin: 'delete', moderator: 'delete' },
  manuscript: { admin: 'flag', moderator: 'flag' },
  user: { admin: 'suspend', moderator: 'suspend' },
  'report-reason': { admin: 'delete', moderator: 'delete' },
  'moderation-report': { admin: 'dismiss', moderator: 'dismiss' },
  'audit-log': { admin: 'delete', moderator: 'delete' },
  feature: { admin: 'delete', moderator: 'delete' },
  product: { admin: 'delete', moderator: 'delete' },
  coupon: { admin: 'delete', moderator: 'delete' },
  gift: { admin: 'delete', moderator: 'delete' },
  'waiting-list': { admin: 'delete', moderator: 'delete' },
};
const INLINE_FIELD: Record<Section, { name: string; value: unknown }> = {
  bookmark: { name: 'progress_percent', value: 50 },
  comment: { name: 'moderation_flag', value: true },
  genre: { name: 'name', value: 'Renamed' },
  'invite-code': { name: 'code', value: 'ABCDEFG' },
  manuscript: { name: 'title', value: 'Renamed' },
  user: { name: 'display_name', value: 'Renamed' },
  'report-reason': { name: 'position', value: 3 },
  'moderation-report': { name: 'status', value: 'resolved' },
  'audit-log': { name: 'action', value: 'x' },
  feature: { name: 'notice', value: 'Back soon.' },
  product: { name: 'name', value: 'Renamed' },
  coupon: { name: 'active', value: false },
  gift: { name: 'recipient_email', value: 'x@example.test' },
  'waiting-list': { name: 'email', value: 'x@example.test' },
};

let test: TestApp;
let people: StaffClients;
let anonymous: TestClient;
let notFoundBody: string;
let make: ReturnType<typeof sectionFactories>;

/** A valid new item of each section that takes one. */
async function createBody(section: Section): Promise<Record<string, unknown>> {
  const tag = Math.random().toString(36).slice(2, 10);
  switch (section) {
    case 'user':
      return { email: `new-${tag}@example.test`, display_name: 'New person' };
    case 'bookmark':
      return { user_id: await make.user!(), manuscript_id: await make.manuscript!() };
    case 'genre': {
      const genre = await people.admin.client.get(`/admin/api/genre/${await make.genre!()}`);
      return { name: `Genre ${tag}`, category_id: genre.json().item.category_id };
    }
    case 'invite-code':
      return {};
    case 'report-reason':
      return { reason: `Reason ${tag}` };
    case 'product':
      return { slug: `tier-${tag}`, name: `Tier ${tag}`, word_limit: 5000 };
    case 'coupon':
      return { code: `C${tag}`, percent_off: 20 };
    default:
      return {};
  }
}

beforeAll(async () => {
  test = await createTestApp();
  people = await staffClients(test);
  anonymous = new TestClient(test.app);
  make = { ...sectionFactories(test.ctx.db), ...paymentSectionFactories(test.ctx.db) };
  notFoundBody = (await people.member.client.get('/no-such-path/at-all')).body;
});
afterAll(() => test.close());

async function requestCell(client: TestClient, role: string, section: Section, view: View) {
  const base = `/admin/api/${section}`;
  const id = ['details', 'update', 'delete', 'field'].includes(view) ? await make[section]!() : 0;
  switch (view) {
    case 'list':
      return client.get(base);
    case 'details':
      return client.get(`${base}/${id}`);
    case 'create':
      return client.post(base, await createBody(section));
    case 'update':
      return client.put(`${base}/${id}`, {});
    case 'delete':
      return client.delete(`${base}/${id}`);
    case 'bulk': {
      const actions = BULK_ACTION[section];
      return client.post(`${base}/bulk`, {
        action: role === 'admin' ? actions.admin : actions.moderator,
        ids: [await make[section]!()],
        input: { reason: 'Spam' },
      });
    }
    case 'export':
      return client.get(`${base}/export/csv`);
    case 'lookup':
      return client.get(`${base}/lookup?field=id`);
    case 'field':
      return client.post(`${base}/${id}/field`, INLINE_FIELD[section]);
    case 'models':
      return client.get(`${base}/models`);
  }
}

describe.each(['anonymous', 'user', 'moderator', 'admin'] as const)('as %s', (role) => {
  const clientOf = () =>
    role === 'anonymous'
      ? anonymous
      : role === 'user'
        ? people.member.client
        : role === 'moderator'
          ? people.moderator.client
          : people.admin.client;

  it.each(SECTIONS.flatMap((section) => VIEWS.map((view) => [section, view] as const)))(
    '%s %s',
    async (section, view) => {
      const response = await requestCell(clientOf(), role, section, view);
      const outcome = expected(role, section, view);
      if (outcome === 'allowed') {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
        expect(response.statusCode, response.body).toBeLessThan(300);
      } else {
        expect(response.statusCode, response.body).toBe(outcome);
      }
      // Nothing tells a stranger the admin area exists: the body of any unknown path.
      if (role === 'anonymous' || role === 'user') expect(response.body).toBe(notFoundBody);
    },
  );
});

describe('the admin page', () => {
  it('is the app shell for staff and the not-found page for everyone else', async () => {
    const html = { headers: { accept: 'text/html' } };
    for (const client of [anonymous, people.member.client]) {
      const response = await client.get('/admin/', html);
      const unknown = await client.get('/no-such-page/', html);
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(unknown.body);
    }
    for (const client of [people.admin.client, people.moderator.client]) {
      const response = await client.get('/admin/', html);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('"page":"admin"');
      expect((await client.get('/admin/users/3', html)).statusCode).toBe(200);
    }
  });

  it('answers the meta of the sections each role may use', async () => {
    const admin = (await people.admin.client.get('/admin/api/_meta')).json();
    expect(admin.role).toBe('admin');
    expect(admin.sections.map((section: { name: string }) => section.name).sort()).toEqual(
      [...SECTIONS].sort(),
    );
    const moderator = (await people.moderator.client.get('/admin/api/_meta')).json();
    expect(moderator.role).toBe('moderator');
    expect(moderator.sections.map((section: { name: string }) => section.name).sort()).toEqual(
      ['comment', 'manuscript', 'moderation-report', 'report-reason', 'user'].sort(),
    );
    const user = moderator.sections.find((section: { name: string }) => section.name === 'user');
    // Moderators never see e-mail addresses, and change no account.
    expect(user.fields.map((field: { name: string }) => field.name)).not.toContain('email');
    expect(user.canUpdate).toBe(false);
    expect(user.bulkActions.map((action: { name: string }) => action.name).sort()).toEqual([
      'lift-suspension',
      'suspend',
    ]);
    const listed = (await people.moderator.client.get('/admin/api/user')).json();
    expect(listed.items.length).toBeGreaterThan(0);
    for (const item of listed.items) expect(item).not.toHaveProperty('email');
  });
});

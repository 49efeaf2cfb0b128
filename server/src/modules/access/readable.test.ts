import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_STATUSES, INVITE_TYPES, type InviteStatus } from '@margins/common';
import type { UserRow } from '../../context.ts';
import { schema, type Database } from '../../db/index.ts';
import { openTestDatabase } from '../../db/test-db.ts';
import { buildUser } from '../../test/factories.ts';
import { buildInvite } from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { buildReport } from '../moderation/test-helpers.ts';
import { canOpen } from './policy.ts';
import { loadReaderAccess } from './reader-access.ts';
import { readableIds, readableManuscripts } from './readable.ts';

/**
 * readableManuscripts() (SQL) and canOpen() (TypeScript) must never disagree: every invite type ×
 * live/archived × every kind of viewer of the access matrix, and a reader for every status an
 * invite row can have (only accepted and approved grant access).
 */
type ManuscriptRow = typeof schema.manuscripts.$inferSelect;

let database: Database;
let owner: UserRow;
const viewers: { label: string; user: UserRow | null }[] = [];
const manuscripts: ManuscriptRow[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  owner = await buildUser(db);
  // × the staff reading rule: no report, a report open (on it, or on one of its comments), a
  // report dismissed.
  const reportStates = ['', ' report open', ' comment report open', ' report dismissed'];
  for (const visibility of INVITE_TYPES) {
    for (const archived of [false, true]) {
      for (const reportState of reportStates) {
        const manuscript = await buildManuscript(db, owner, {
          visibility,
          archivedAt: archived ? new Date() : null,
          title: `${visibility}${archived ? ' archived' : ''}${reportState}`,
        });
        manuscripts.push(manuscript);
        if (reportState === ' comment report open') {
          const [highlight] = await db
            .insert(schema.highlights)
            .values({
              id: `sel-readable-${manuscript.id}`,
              manuscriptId: manuscript.id,
              userId: owner.id,
              startPath: [0],
              endPath: [0],
              startOffset: 0,
              endOffset: 4,
              selectedText: 'Once',
              textStart: 0,
              textEnd: 4,
              quoteExact: 'Once',
              quotePrefix: '',
              quoteSuffix: ' upon',
            })
            .returning();
          const [comment] = await db
            .insert(schema.comments)
            .values({
              manuscriptId: manuscript.id,
              selectionId: highlight!.id,
              authorId: owner.id,
              body: 'A comment someone reported',
            })
            .returning();
          await buildReport(db, { model: 'comment', elementId: comment!.id });
        } else if (reportState !== '') {
          await buildReport(db, {
            model: 'manuscript',
            elementId: manuscript.id,
            status: reportState === ' report open' ? 'open' : 'dismissed',
          });
        }
      }
    }
  }
  // A manuscript nobody below is invited to: a grant elsewhere must not leak into it.
  const other = await buildManuscript(db, await buildUser(db), { visibility: 'private' });
  manuscripts.push(other);
  viewers.push(
    { label: 'anonymous', user: null },
    { label: 'stranger', user: await buildUser(db) },
    { label: 'owner', user: owner },
    { label: 'moderator', user: await buildUser(db, { role: 'moderator' }) },
    { label: 'admin', user: await buildUser(db, { role: 'admin' }) },
    { label: 'mature reader', user: await buildUser(db, { certified18At: new Date() }) },
  );
  for (const status of INVITE_STATUSES) {
    const reader = await buildUser(db);
    for (const manuscript of manuscripts.filter((row) => row.id !== other.id)) {
      await buildInvite(db, {
        manuscriptId: manuscript.id,
        invitedUserId: reader.id,
        inviteType: manuscript.visibility,
        status: status satisfies InviteStatus,
      });
    }
    viewers.push({ label: `invite ${status}`, user: reader });
  }
});

afterAll(async () => {
  await database?.close();
});

describe('readableManuscripts agrees with canOpen', () => {
  it('for every viewer and every manuscript of the access matrix', async () => {
    const db = database.db;
    let allowed = 0;
    for (const { label, user } of viewers) {
      const rows = await db
        .select({ id: schema.manuscripts.id })
        .from(schema.manuscripts)
        .where(readableManuscripts(user));
      const inSql = new Set(rows.map((row) => row.id));
      for (const manuscript of manuscripts) {
        const access = await loadReaderAccess({ db }, user, manuscript);
        const expected = canOpen(user, manuscript, access);
        if (expected) allowed += 1;
        expect({ label, manuscript: manuscript.title, open: inSql.has(manuscript.id) }).toEqual({
          label,
          manuscript: manuscript.title,
          open: expected,
        });
      }
    }
    // Both answers occur: a condition that is always true (or false) cannot pass.
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThan(viewers.length * manuscripts.length);
  });

  it('grants: only accepted and approved invites open a private manuscript', async () => {
    const privateLive = manuscripts.find((row) => row.title === 'private')!;
    const opened = [];
    for (const { label, user } of viewers.filter((viewer) => viewer.label.startsWith('invite'))) {
      const ids = await readableIds(database.db, user, [privateLive.id]);
      if (ids.has(privateLive.id)) opened.push(label);
    }
    expect(opened).toEqual(['invite accepted', 'invite approved']);
  });

  it('staff open a private manuscript only while a report on it is open', async () => {
    const titles = async (label: string) => {
      const user = viewers.find((viewer) => viewer.label === label)!.user;
      const rows = await database.db
        .select({ title: schema.manuscripts.title })
        .from(schema.manuscripts)
        .where(readableManuscripts(user));
      return rows.map((row) => row.title).filter((title) => title.startsWith('private'));
    };
    expect((await titles('moderator')).sort()).toEqual([
      'private comment report open',
      'private report open',
    ]);
    expect((await titles('admin')).sort()).toEqual([
      'private archived comment report open',
      'private archived report open',
      'private comment report open',
      'private report open',
    ]);
  });
});

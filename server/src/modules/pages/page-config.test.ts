import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageConfig, type PageConfig } from '@margins/common';
import { schema } from '../../db/index.ts';
import { buildGenres } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  buildInvite,
  buildSurvey,
  getPage,
  personFor,
  QUIZ,
  type Person,
} from '../invites/test-helpers.ts';
import { buildManuscript } from '../manuscripts/test-helpers.ts';
import { injectPageConfig } from './render.ts';

/**
 * Text a user may have stored (before input was checked, or through any path): replacement
 * patterns of String.replace, markup that ends or changes a script element, line separators,
 * control characters, quotes and backslashes. PostgreSQL keeps all of it (but NUL).
 */
const HOSTILE =
  'Zed $` here $\' and $& $$ $1 </script><!--<script>--> </SCRIPT \u2028\u2029 \u0001\u001b\u007f \t\n\r "q" \\ \' & <b> 😀';

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['document'];

/** The text of the page-config script as a browser's HTML parser sees it. */
function configText(html: string): string | null {
  const stack: Node[] = [parse(html)];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ('tagName' in node && node.tagName === 'script') {
      if (node.attrs.some((attr) => attr.name === 'id' && attr.value === 'page-config')) {
        return node.childNodes.map((child) => ('value' in child ? child.value : '')).join('');
      }
    }
    if ('childNodes' in node) stack.push(...(node.childNodes as Node[]));
    if ('content' in node) stack.push(node.content as unknown as Node);
  }
  return null;
}

/** The page configuration as the browser reads it: parsed HTML → JSON.parse → schema. */
function browserConfig(html: string): PageConfig {
  const text = configText(html);
  if (text === null) throw new Error(`no page configuration in: ${html.slice(0, 300)}`);
  return pageConfig.parse(JSON.parse(text));
}

function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (value && typeof value === 'object') {
    for (const child of Object.values(value)) stringsOf(child, into);
  }
  return into;
}

let test: TestApp;
let hostile: Person;
let viewer: Person;
const ids = { hostileManuscript: 0, viewerManuscript: 0, surveyManuscript: 0, shareCode: '' };

beforeAll(async () => {
  test = await createTestApp();
  const { db } = test.ctx;
  const hostileFields = {
    displayName: HOSTILE,
    handle: `zed_${'$'}'`,
    about: HOSTILE,
    pronouns: HOSTILE,
    website: HOSTILE,
  };
  hostile = await personFor(test, hostileFields);
  viewer = await personFor(test);
  const [genre] = await buildGenres(db, 'fiction', [HOSTILE]);

  // The hostile user's manuscript: the viewer is invited to it and has it in their reads.
  const theirs = await buildManuscript(db, hostile.user, {
    title: HOSTILE,
    summary: HOSTILE,
    visibility: 'restricted',
  });
  ids.hostileManuscript = theirs.id;
  await db.insert(schema.manuscriptGenres).values({ manuscriptId: theirs.id, genreId: genre!.id });
  await buildInvite(db, {
    manuscriptId: theirs.id,
    invitedUserId: viewer.user.id,
    createdById: hostile.user.id,
    status: 'accepted',
  });
  await db.insert(schema.bookmarks).values({ userId: viewer.user.id, manuscriptId: theirs.id });
  const pending = await buildManuscript(db, hostile.user, { title: HOSTILE });
  await buildInvite(db, {
    manuscriptId: pending.id,
    invitedUserId: viewer.user.id,
    createdById: hostile.user.id,
    status: 'pending',
  });
  const link = await buildInvite(db, { manuscriptId: theirs.id, kind: 'link', status: 'pending' });
  ids.shareCode = link.code;

  // The viewer's own restricted manuscript: the hostile user asked for access (issue 20.1).
  const own = await buildManuscript(db, viewer.user, { visibility: 'restricted' });
  ids.viewerManuscript = own.id;
  await buildInvite(db, {
    manuscriptId: own.id,
    kind: 'request',
    invitedUserId: hostile.user.id,
    createdById: hostile.user.id,
    status: 'requested',
  });

  // A questionnaire of the viewer's with the hostile user's answer to read.
  const surveyed = await buildManuscript(db, viewer.user, { visibility: 'logged_in' });
  ids.surveyManuscript = surveyed.id;
  const survey = await buildSurvey(db, surveyed.id, {
    questions: { ...QUIZ, q3: { ...QUIZ.q3!, question: HOSTILE } },
  });
  await db.insert(schema.surveyAnswers).values({
    surveyId: survey.id,
    userId: hostile.user.id,
    answers: { q1: 'b', q3: HOSTILE },
    score: 50,
  });
});
afterAll(() => test.close());

describe('hostile strings in the page configuration', () => {
  const pages: Array<{ name: string; url: () => string; as: () => Person; shows: boolean }> = [
    { name: 'dashboard', url: () => '/dashboard', as: () => viewer, shows: true },
    {
      name: 'reader (their manuscript)',
      url: () => `/manuscript/document/reader/${ids.hostileManuscript}`,
      as: () => viewer,
      shows: true,
    },
    {
      name: 'reader (own manuscript, their access request)',
      url: () => `/manuscript/document/reader/${ids.viewerManuscript}`,
      as: () => viewer,
      shows: true,
    },
    {
      name: 'survey answers',
      url: () => `/manuscript/${ids.surveyManuscript}/survey/questionaire/responses`,
      as: () => viewer,
      shows: true,
    },
    {
      name: 'upload (genre names)',
      url: () => '/manuscript/upload',
      as: () => viewer,
      shows: true,
    },
    {
      name: 'public profile',
      url: () => `/profile/get/${hostile.user.id}`,
      as: () => viewer,
      shows: true,
    },
    { name: 'share link', url: () => `/share/${ids.shareCode}`, as: () => viewer, shows: false },
    { name: 'own profile', url: () => '/profile/', as: () => hostile, shows: true },
    { name: 'home, as the hostile user', url: () => '/', as: () => hostile, shows: true },
    {
      name: 'dashboard, as the hostile user',
      url: () => '/dashboard',
      as: () => hostile,
      shows: true,
    },
    { name: 'terms', url: () => '/terms', as: () => viewer, shows: false },
    {
      name: 'log-in with a hostile next',
      url: () => `/auth/login?next=${encodeURIComponent("/$'$`$&</script>")}`,
      as: () => viewer,
      shows: false,
    },
  ];

  for (const page of pages) {
    it(`${page.name}: the browser reads it back, logged in, with the text intact`, async () => {
      const person = page.as();
      const response = await getPage(person.client, page.url());
      if (response.statusCode >= 300 && response.statusCode < 400) return; // a redirect: no page
      expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
      const config = browserConfig(response.body);
      expect(config.loginState).toBe('logged_in');
      expect(config.currentUser?.id).toBe(person.user.id);
      if (page.shows)
        expect(stringsOf(config.data).concat(stringsOf(config.currentUser))).toContain(HOSTILE);
    });
  }
});

describe('injectPageConfig', () => {
  it('round-trips NUL, lone surrogates and every other string through the HTML parser', () => {
    const strings = [
      HOSTILE,
      '\u0000',
      'half \ud800 pair',
      'other half \udfff',
      '</script>',
      '<!--',
      '-->',
      '<script>',
      '\u2028\u2029',
      "$`$'$&",
      String.fromCharCode(...Array.from({ length: 32 }, (_, code) => code)),
    ];
    const config: PageConfig = {
      page: 'home',
      currentUserId: null,
      current_user_id: null,
      currentUser: null,
      loginState: 'anonymous',
      productsEnabled: false,
      invitesEnabled: false,
      data: { strings },
    };
    const shell =
      '<!doctype html><html><head><title>M</title></head><body><!--PAGE_CONFIG--><p>after</p></body></html>';
    const html = injectPageConfig(shell, config);
    expect(browserConfig(html).data).toEqual({ strings });
    expect(html.endsWith('<p>after</p></body></html>')).toBe(true);
  });
});

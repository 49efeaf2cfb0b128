import { expect, test } from './support/fixtures.ts';
import { csrfOf, newPerson, uploadPublicManuscript } from './support/people.ts';

/**
 * Text that acts as a String.replace pattern ($` $' $&), ends a script element or starts an
 * HTML comment, and a line separator: all allowed in a display name, none may change another
 * user's page (issue 20.1, issue 17.4).
 */
const HOSTILE_NAME = "Zed $` here \u2028 $' $& </script><!-- end";

test('a hostile display name in an access request leaves the author logged in on their pages', async ({
  browser,
}) => {
  const author = await newPerson(browser, 'Ada Author');
  const manuscriptId = await uploadPublicManuscript(author, 'The Ledger', {
    name: 'ledger.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# The Ledger\n\nOnce upon a time, a ledger.\n'),
  });
  const linked = await author.request.post(`/manuscript/${manuscriptId}/invite/link`, {
    data: { access: 'restricted' },
    headers: { 'x-csrf-token': await csrfOf(author.context()) },
  });
  expect(linked.ok(), await linked.text()).toBe(true);
  const { invite } = (await linked.json()) as { invite: { invite_code: { code: string } } };
  const code = invite.invite_code.code;

  const reader = await newPerson(browser, HOSTILE_NAME);
  const asked = await reader.request.post(`/share/${code}/request`, {
    headers: { 'x-csrf-token': await csrfOf(reader.context()) },
  });
  expect(asked.ok(), await asked.text()).toBe(true);

  const consoleErrors: string[] = [];
  author.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  for (const url of [`/manuscript/document/reader/${manuscriptId}`, '/dashboard']) {
    await author.goto(url);
    // Logged in: the header offers the dashboard and profile, never "Log in".
    await expect(author.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
    await expect(author.getByRole('link', { name: 'Log in', exact: true })).toHaveCount(0);
    const config = await author.evaluate(
      () => JSON.parse(document.getElementById('page-config')!.textContent!) as unknown,
    );
    expect(config).toMatchObject({
      loginState: 'logged_in',
      currentUser: { display_name: 'Ada Author' },
    });
    if (url.includes('reader')) {
      expect(JSON.stringify(config)).toContain(JSON.stringify(HOSTILE_NAME));
      await author.screenshot({ path: 'test-results/e2e/hostile-reader-page.png', fullPage: true });
    }
  }
  expect(consoleErrors.filter((text) => /page configuration/i.test(text))).toEqual([]);

  // The reader with the hostile name sees their own pages logged in too.
  await reader.goto('/dashboard');
  await expect(reader.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
});

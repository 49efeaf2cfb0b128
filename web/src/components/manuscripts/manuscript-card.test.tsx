import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@margins/common';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ManuscriptCard, noteStyleIndex } from './manuscript-card.tsx';

function cardOf(id: number): HTMLElement {
  const card = document.querySelector<HTMLElement>(`[data-manuscript-card="${id}"]`);
  if (!card) throw new Error(`no card ${id}`);
  return card;
}

describe('ManuscriptCard', () => {
  it('shows title (linking to the reader), summary, comment count and the author popup', () => {
    const manuscript = buildManuscript({ id: 11, title: 'The Salt Road', comment_count: 3 });
    renderWithApp(<ManuscriptCard manuscript={manuscript} index={0} />);
    const card = cardOf(11);
    const link = within(card).getByRole('link', { name: 'The Salt Road' });
    expect(link.getAttribute('href')).toBe('/manuscript/document/reader/11');
    expect(card.textContent).toContain(manuscript.summary);
    expect(card.querySelector('[data-comment-count="3"]')?.textContent).toContain('3 comments');
    expect(within(card).getByRole('button', { name: 'June Harrow' })).toBeTruthy();
    expect(card.querySelector('[data-nsfw-badge]')).toBeNull();
    expect(card.querySelector('[data-moderation-notice]')).toBeNull();
  });

  it('while inking shows the title and an "Inking ..." spinner, and no link', () => {
    const manuscript = buildManuscript({ id: 12, title: 'Still Wet', inking: true });
    renderWithApp(<ManuscriptCard manuscript={manuscript} index={0} />);
    const card = cardOf(12);
    expect(card.textContent).toContain('Still Wet');
    expect(within(card).getByText('Inking ...')).toBeTruthy();
    expect(card.querySelector('[data-ink-spinner]')).toBeTruthy();
    expect(card.querySelector('a')).toBeNull();
    expect(card.textContent).not.toContain(manuscript.summary);
  });

  it('shows the red moderator notice instead of the summary when flagged', () => {
    const flagged = buildManuscript({
      id: 13,
      moderation_flag: true,
      moderation_reason: 'Plagiarised chapters',
    });
    const noReason = buildManuscript({ id: 14, moderation_flag: true, moderation_reason: null });
    renderWithApp(
      <>
        <ManuscriptCard manuscript={flagged} index={0} />
        <ManuscriptCard manuscript={noReason} index={1} />
      </>,
    );
    const notice = cardOf(13).querySelector('[data-moderation-notice]');
    expect(notice?.textContent).toBe(
      'This manuscript was flagged by our moderators. Reason: Plagiarised chapters',
    );
    expect(notice?.className).toContain('text-danger');
    expect(cardOf(13).textContent).not.toContain(flagged.summary);
    expect(cardOf(14).querySelector('[data-moderation-notice]')?.textContent).toBe(
      MESSAGES.flagged(MESSAGES.noReasonGiven),
    );
  });

  it('gives an nsfw manuscript the 18+ badge titled "Mature content"', () => {
    renderWithApp(
      <ManuscriptCard manuscript={buildManuscript({ id: 15, nsfw: true })} index={0} />,
    );
    const badge = cardOf(15).querySelector('[data-nsfw-badge]');
    expect(badge?.textContent).toBe('18+');
    expect(badge?.getAttribute('title')).toBe('Mature content');
  });

  it('cycles through 4 colour styles by position', () => {
    const manuscripts = [21, 22, 23, 24, 25, 26].map((id) => buildManuscript({ id }));
    renderWithApp(
      <>
        {manuscripts.map((manuscript, index) => (
          <ManuscriptCard key={manuscript.id} manuscript={manuscript} index={index} />
        ))}
      </>,
    );
    const styles = manuscripts.map((manuscript) => cardOf(manuscript.id).dataset.noteStyle);
    expect(styles).toEqual(['0', '1', '2', '3', '0', '1']);
    expect(cardOf(21).className).toContain('bg-note-1');
    expect(cardOf(24).className).toContain('bg-note-4');
    expect(cardOf(25).className).toContain('bg-note-1');
    expect(noteStyleIndex(7)).toBe(3);
  });

  it('renders the author’s actions', () => {
    renderWithApp(
      <ManuscriptCard
        manuscript={buildManuscript({ id: 16 })}
        index={0}
        actions={<button type="button">Edit</button>}
      />,
    );
    expect(within(cardOf(16)).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(1);
  });
});

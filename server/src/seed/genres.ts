/** The genre catalogue, grouped by the three categories of SPEC §9. */
export const GENRE_CATALOGUE: Record<string, string[]> = {
  fiction: [
    'Adventure',
    'Contemporary',
    'Fantasy',
    'Historical',
    'Horror',
    'Literary',
    'Middle Grade',
    'Mystery',
    'Romance',
    'Science Fiction',
    'Thriller',
    'Young Adult',
  ],
  'non-fiction': [
    'Biography',
    'Business',
    'Essays',
    'History',
    'Memoir',
    'Science',
    'Self-Help',
    'Travel',
    'True Crime',
  ],
  poetry: ['Free Verse', 'Haiku', 'Lyric', 'Narrative', 'Prose Poetry', 'Sonnet', 'Spoken Word'],
};

import { useState } from 'react';
import { MESSAGES, type GenreCategory } from '@margins/common';
import { api } from '../../api/client.ts';
import { useFlash } from '../../components/feedback/feedback.tsx';

const CATEGORY_LABELS: Record<string, string> = {
  fiction: 'Fiction',
  'non-fiction': 'Non-fiction',
  poetry: 'Poetry',
};

/**
 * Genre preferences: checkboxes grouped by category. Each toggle saves at once
 * (PUT or DELETE /profile/genres/:genre_id); a failure puts the box back and flashes.
 */
export function GenresTab({
  categories,
  selectedGenreIds,
}: {
  categories: GenreCategory[];
  selectedGenreIds: number[];
}) {
  const flash = useFlash();
  const [selected, setSelected] = useState(() => new Set(selectedGenreIds));

  const setChecked = (genreId: number, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(genreId);
      else next.delete(genreId);
      return next;
    });

  const handleToggle = async (genreId: number, checked: boolean) => {
    setChecked(genreId, checked);
    try {
      const path = `/profile/genres/${genreId}`;
      await (checked ? api.put(path) : api.delete(path));
    } catch {
      setChecked(genreId, !checked);
      flash(MESSAGES.unableToUpdateGenres);
    }
  };

  if (categories.length === 0) {
    return <p className="text-muted">There are no genres to choose from yet.</p>;
  }

  return (
    <div className="space-y-8">
      <p className="text-muted">
        Pick what you love to read. We use it to suggest manuscripts and show it on your public
        profile as your interests. Changes save as you go.
      </p>
      {categories.map((category) => (
        <fieldset key={category.category}>
          <legend className="mb-3 font-serif text-xl font-semibold">
            {CATEGORY_LABELS[category.category] ?? category.category}
          </legend>
          <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 md:grid-cols-3">
            {category.genres.map((genre) => {
              const checked = selected.has(genre.genre_id);
              return (
                <label
                  key={genre.genre_id}
                  className={`flex cursor-pointer items-center gap-3 rounded-lg border px-3 py-2.5 text-sm transition-colors ${
                    checked
                      ? 'border-accent/60 bg-accent-soft'
                      : 'border-line bg-surface hover:border-accent/40'
                  }`}
                >
                  <input
                    type="checkbox"
                    name="genre_ids"
                    value={genre.genre_id}
                    checked={checked}
                    onChange={(event) => void handleToggle(genre.genre_id, event.target.checked)}
                    className="size-4 accent-(--accent)"
                  />
                  {genre.name}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
    </div>
  );
}

import { CATEGORIES, type Category } from '@margins/common';
import { CATEGORY_LABELS } from '../../api/manuscripts.ts';

/** The categories as one row of segmented radio buttons (form field `category`). */
export function CategoryOptions({
  value,
  onChange,
}: {
  value: Category;
  onChange: (category: Category) => void;
}) {
  return (
    <div className="inline-flex flex-wrap gap-1 rounded-full border border-line bg-surface p-1">
      {CATEGORIES.map((option) => (
        <label
          key={option}
          className={`cursor-pointer rounded-full px-4 py-1.5 text-sm font-medium transition-colors has-focus-visible:outline-2 has-focus-visible:outline-accent ${
            value === option ? 'bg-accent-soft text-accent' : 'text-muted hover:text-ink'
          }`}
        >
          <input
            type="radio"
            name="category"
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
            className="sr-only"
          />
          {CATEGORY_LABELS[option]}
        </label>
      ))}
    </div>
  );
}

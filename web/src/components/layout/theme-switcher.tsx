import type { Theme } from '@margins/common';
import { useThemePreference } from '../../lib/theme.ts';

const OPTIONS: { value: Theme; label: string; icon: string }[] = [
  {
    value: 'light',
    label: 'Light',
    icon: 'M10 6.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7ZM9.25 1.5h1.5v2.5h-1.5V1.5Zm0 14.5h1.5v2.5h-1.5V16ZM1.5 9.25H4v1.5H1.5v-1.5Zm14.5 0h2.5v1.5H16v-1.5ZM3.4 4.46l1.06-1.06 1.77 1.77-1.06 1.06L3.4 4.46Zm10.37 10.37 1.06-1.06 1.77 1.77-1.06 1.06-1.77-1.77ZM3.4 15.54l1.77-1.77 1.06 1.06-1.77 1.77-1.06-1.06ZM13.77 5.17l1.77-1.77 1.06 1.06-1.77 1.77-1.06-1.06Z',
  },
  {
    value: 'dark',
    label: 'Dark',
    icon: 'M16.6 12.9A7 7 0 0 1 7.1 3.4a7.5 7.5 0 1 0 9.5 9.5Z',
  },
  {
    value: 'auto',
    label: 'Auto',
    icon: 'M10 2.5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15Zm0 1.5v12a6 6 0 0 1 0-12Z',
  },
];

/** Light / dark / auto, saved under ms-theme-pref and applied at once. */
export function ThemeSwitcher({ className = '' }: { className?: string }) {
  const [preference, setPreference] = useThemePreference();
  return (
    <div
      role="group"
      aria-label="Theme"
      className={`inline-flex items-center rounded-full border border-line bg-surface p-0.5 ${className}`}
    >
      {OPTIONS.map((option) => {
        const selected = preference === option.value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={selected}
            title={`${option.label} theme`}
            onClick={() => setPreference(option.value)}
            data-theme-option={option.value}
            className={`inline-flex size-8 cursor-pointer items-center justify-center rounded-full transition-colors ${
              selected ? 'bg-accent-soft text-accent' : 'text-muted hover:text-ink'
            }`}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d={option.icon} />
            </svg>
            <span className="sr-only">{option.label}</span>
          </button>
        );
      })}
    </div>
  );
}

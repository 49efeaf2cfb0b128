import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  MESSAGES,
  type Category,
  type GenreCategory,
  type InviteType,
  type Manuscript,
} from '@margins/common';
import { ApiError, errorMessage, type FieldErrors } from '../../api/client.ts';
import {
  categoryLabel,
  fetchGenreCatalogue,
  manuscriptKeys,
  saveManuscript,
} from '../../api/manuscripts.ts';
import { ConfirmDialog } from '../dialog.tsx';
import { useFlash, useToast } from '../feedback/feedback.tsx';
import {
  FieldErrorList,
  FormAlert,
  TextAreaField,
  TextField,
  otherErrors,
} from '../form/fields.tsx';
import { CategoryOptions } from './category-options.tsx';
import { opensUp, opensUpWording, VISIBILITY_OPTIONS } from './visibility.ts';
import { APPROVE_FIRST_HINT } from '../surveys/approval-outcome.ts';

const FIELDS = [
  'title',
  'summary',
  'visibility',
  'private_comments',
  'nsfw',
  'category',
  'genre_ids',
  'approvals_required',
];

/** The genre catalogue: the page's when it has one, fetched once otherwise. */
function useGenreCatalogue(fromPage: GenreCategory[] | null | undefined) {
  const query = useQuery({
    queryKey: manuscriptKeys.catalogue,
    queryFn: fetchGenreCatalogue,
    enabled: !fromPage,
    staleTime: Infinity,
  });
  return fromPage ?? query.data ?? null;
}

function Toggle({
  name,
  label,
  hint,
  checked,
  onChange,
  errors,
}: {
  name: string;
  label: string;
  hint: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div>
      <label
        htmlFor={id}
        className="flex cursor-pointer items-start gap-3 rounded-lg border border-line bg-surface px-4 py-3 transition-colors hover:border-accent/50"
      >
        <input
          id={id}
          type="checkbox"
          name={name}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={`${id}-hint${errors?.length ? ` ${id}-errors` : ''}`}
          aria-invalid={errors?.length ? true : undefined}
          className="mt-0.5 size-4 shrink-0 accent-(--accent)"
        />
        <span>
          <span className="block text-sm font-semibold">{label}</span>
          <span id={`${id}-hint`} className="mt-0.5 block text-sm text-muted">
            {hint}
          </span>
        </span>
      </label>
      <FieldErrorList id={`${id}-errors`} messages={errors} />
    </div>
  );
}

/**
 * The manuscript's edit form (SPEC §3): title, summary, visibility, private comments,
 * mature content, category, genres and approvals, saved with POST /manuscript/:id/edit.
 * Opening it up to more readers asks first. A 400 lists each field's messages under it.
 */
export function ManuscriptForm({
  manuscript,
  categories: pageCategories,
  onSaved,
}: {
  manuscript: Manuscript;
  categories?: GenreCategory[] | null;
  onSaved?: (manuscript: Manuscript) => void;
}) {
  const id = useId();
  const toast = useToast();
  const flash = useFlash();
  const categories = useGenreCatalogue(pageCategories);
  const [visibility, setVisibility] = useState<InviteType>(manuscript.visibility);
  const [pendingVisibility, setPendingVisibility] = useState<InviteType | null>(null);
  const [category, setCategory] = useState<Category>(manuscript.category);
  const [genreIds, setGenreIds] = useState(() => new Set(manuscript.genre_ids));
  const [privateComments, setPrivateComments] = useState(manuscript.private_comments);
  const [nsfw, setNsfw] = useState(manuscript.nsfw);
  const [approvalsRequired, setApprovalsRequired] = useState(manuscript.approvals_required);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const save = useMutation({
    mutationFn: (body: FormData) => saveManuscript(manuscript.id, body),
  });

  const handleVisibilityChange = (next: InviteType) => {
    if (opensUp(visibility, next)) setPendingVisibility(next);
    else setVisibility(next);
  };

  const toggleGenre = (genreId: number, checked: boolean) =>
    setGenreIds((current) => {
      const next = new Set(current);
      if (checked) next.add(genreId);
      else next.delete(genreId);
      return next;
    });

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget);
    const body = new FormData();
    body.set('title', String(typed.get('title') ?? ''));
    body.set('summary', String(typed.get('summary') ?? ''));
    body.set('visibility', visibility);
    body.set('category', category);
    // Unchecked boxes are sent as "false": a field left out would keep its old value.
    body.set('private_comments', String(privateComments));
    body.set('nsfw', String(nsfw));
    body.set('approvals_required', String(approvalsRequired));
    if (genreIds.size === 0) body.set('genre_ids', '');
    for (const genreId of genreIds) body.append('genre_ids', String(genreId));
    setProblem(null);
    try {
      const saved = await save.mutateAsync(body);
      setErrors({});
      toast(MESSAGES.manuscriptUpdated);
      onSaved?.(saved);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        focusFirstError.current = true;
        setErrors(error.errors);
        setProblem(MESSAGES.checkFormFields);
        return;
      }
      flash(errorMessage(error));
    }
  };

  const stray = otherErrors(errors, FIELDS);
  // The chosen category's genres first: that is where most authors look.
  const orderedCategories = [...(categories ?? [])].sort(
    (a, b) => Number(b.category === category) - Number(a.category === category),
  );

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      aria-label="Manuscript details"
      className="space-y-7"
      data-manuscript-form
    >
      {problem ? (
        <FormAlert>
          {problem}
          {stray.length ? <span className="mt-1 block font-normal">{stray.join(' ')}</span> : null}
        </FormAlert>
      ) : null}

      <div className="space-y-5">
        <TextField
          label="Title"
          name="title"
          defaultValue={manuscript.title}
          maxLength={200}
          required
          errors={errors.title}
        />
        <TextAreaField
          label="Summary"
          name="summary"
          defaultValue={manuscript.summary}
          rows={4}
          maxLength={2000}
          hint="Shown on the card readers see before they open it."
          errors={errors.summary}
        />
      </div>

      <fieldset>
        <legend className="field-label">Who can read it</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {VISIBILITY_OPTIONS.map((option) => {
            const checked = visibility === option.value;
            return (
              <label
                key={option.value}
                className={`flex cursor-pointer items-start gap-3 rounded-lg border px-4 py-3 transition-colors has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent ${
                  checked
                    ? 'border-accent/70 bg-accent-soft'
                    : 'border-line bg-surface hover:border-accent/40'
                }`}
              >
                <input
                  type="radio"
                  name="visibility"
                  value={option.value}
                  checked={checked}
                  onChange={() => handleVisibilityChange(option.value)}
                  aria-describedby={`${id}-visibility-${option.value}`}
                  className="mt-1 size-4 shrink-0 accent-(--accent)"
                />
                <span>
                  <span className="block text-sm font-semibold">{option.label}</span>
                  <span
                    id={`${id}-visibility-${option.value}`}
                    className="mt-0.5 block text-sm text-muted"
                  >
                    {option.help}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        <FieldErrorList id={`${id}-visibility-errors`} messages={errors.visibility} />
      </fieldset>

      <fieldset>
        <legend className="field-label">Category</legend>
        <CategoryOptions value={category} onChange={setCategory} />
        <FieldErrorList id={`${id}-category-errors`} messages={errors.category} />
      </fieldset>

      <fieldset>
        <legend className="field-label">Genres</legend>
        {categories === null ? (
          <p className="text-sm text-muted">Loading the genres…</p>
        ) : categories.length === 0 ? (
          <p className="text-sm text-muted">There are no genres to choose from yet.</p>
        ) : (
          <div className="space-y-4">
            {orderedCategories.map((group) => (
              <div key={group.category} role="group" aria-label={categoryLabel(group.category)}>
                <p className="mb-2 text-xs font-semibold tracking-[0.12em] text-muted uppercase">
                  {categoryLabel(group.category)}
                </p>
                <div className="flex flex-wrap gap-2">
                  {group.genres.map((genre) => {
                    const checked = genreIds.has(genre.genre_id);
                    return (
                      <label
                        key={genre.genre_id}
                        className={`inline-flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1.5 text-sm transition-colors has-focus-visible:outline-2 has-focus-visible:outline-accent ${
                          checked
                            ? 'border-accent/60 bg-accent-soft text-ink'
                            : 'border-line bg-surface text-muted hover:border-accent/40 hover:text-ink'
                        }`}
                      >
                        <input
                          type="checkbox"
                          name="genre_ids"
                          value={genre.genre_id}
                          checked={checked}
                          onChange={(event) => toggleGenre(genre.genre_id, event.target.checked)}
                          className="size-3.5 accent-(--accent)"
                        />
                        {genre.name}
                      </label>
                    );
                  })}
                </div>
              </div>
            ))}
          </div>
        )}
        <FieldErrorList id={`${id}-genre-errors`} messages={errors.genre_ids} />
      </fieldset>

      <div className="space-y-3">
        <Toggle
          name="private_comments"
          label="Private comments"
          hint="Only you and each comment’s writer see what readers write."
          checked={privateComments}
          onChange={setPrivateComments}
          errors={errors.private_comments}
        />
        <Toggle
          name="nsfw"
          label="Mature content (18+)"
          hint="Readers confirm they are 18 or over before the text shows."
          checked={nsfw}
          onChange={setNsfw}
          errors={errors.nsfw}
        />
        <Toggle
          name="approvals_required"
          label="Approve readers first"
          hint={APPROVE_FIRST_HINT}
          checked={approvalsRequired}
          onChange={setApprovalsRequired}
          errors={errors.approvals_required}
        />
      </div>

      <div className="flex justify-end border-t border-line pt-5">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save manuscript'}
        </button>
      </div>

      {pendingVisibility ? (
        <ConfirmDialog
          title={opensUpWording(pendingVisibility).title}
          confirmLabel={opensUpWording(pendingVisibility).confirm}
          cancelLabel="Keep it as it is"
          onConfirm={() => {
            setVisibility(pendingVisibility);
            setPendingVisibility(null);
          }}
          onCancel={() => setPendingVisibility(null)}
        >
          <p>
            {opensUpWording(pendingVisibility).explanation} The document’s permission changes as
            soon as you save.
          </p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
